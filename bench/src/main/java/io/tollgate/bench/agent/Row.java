package io.tollgate.bench.agent;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of a table: a setup and the agent jar it runs (null for the baseline). With {@code
 * --before-jar}, the limiter setups run a second time on that jar in every round and repetition,
 * so a change is measured side by side with what it replaces, under the same load.
 */
record Row(String label, Setup setup, Path agentJar) {

  /**
   * The start-up rows: the baseline, the limiter setups, an Anthropic provider's too, the
   * OpenTelemetry Java agent ({@code otelAgentJar}) on the same app and, for the OpenAI SDK's app
   * ({@code tokenizerRow}), jtokkit's load alone.
   */
  static List<Row> startup(Path agentJar, Path beforeJar, Path otelAgentJar,
      boolean tokenizerRow) {
    List<Row> rows = new ArrayList<>(rows(agentJar, beforeJar, false));
    rows.add(new Row(Setup.OTEL_AGENT.label, Setup.OTEL_AGENT, otelAgentJar));
    if (tokenizerRow) {
      rows.add(new Row(Setup.TOKENIZER_ONLY.label, Setup.TOKENIZER_ONLY, null));
    }
    return List.copyOf(rows);
  }

  /** The per-call rows: the baseline, the limiter setups, then the non-provider host. */
  static List<Row> perCall(Path agentJar, Path beforeJar) {
    return rows(agentJar, beforeJar, true);
  }

  private static List<Row> rows(Path agentJar, Path beforeJar, boolean perCall) {
    List<Row> rows = new ArrayList<>();
    rows.add(new Row(Setup.BASELINE.label, Setup.BASELINE, null));
    List<Setup> setups = perCall ? List.of(Setup.IN_MEMORY, Setup.REDIS)
        : List.of(Setup.IN_MEMORY, Setup.REDIS, Setup.ANTHROPIC_TOO);
    for (Setup setup : setups) {
      rows.add(new Row(setup.label, setup, agentJar));
      if (beforeJar != null) {
        rows.add(new Row(setup.label + ", before (" + beforeJar.getFileName() + ")", setup,
            beforeJar));
      }
    }
    if (perCall) {
      rows.add(new Row(Setup.OTHER_HOST.label, Setup.OTHER_HOST, agentJar));
    }
    return List.copyOf(rows);
  }

  /** The index of {@code setup}'s row on {@code jar}. */
  static int indexOf(List<Row> rows, Setup setup, Path jar) {
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).setup() == setup && (jar == null || jar.equals(rows.get(i).agentJar()))) {
        return i;
      }
    }
    throw new IllegalArgumentException("no row for " + setup.label + " on " + jar);
  }
}
