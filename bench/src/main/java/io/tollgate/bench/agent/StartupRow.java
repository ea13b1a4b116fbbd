package io.tollgate.bench.agent;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of the start-up table: a setup and the agent jar it runs (null for the baseline). With
 * {@code --before-jar}, the agent setups run a second time on that jar in every repetition, so a
 * change to start-up is measured side by side with what it replaces, under the same load.
 */
record StartupRow(String label, Setup setup, Path agentJar) {

  static List<StartupRow> of(Path agentJar, Path beforeJar) {
    List<StartupRow> rows = new ArrayList<>();
    rows.add(new StartupRow(Setup.BASELINE.label, Setup.BASELINE, null));
    for (Setup setup : List.of(Setup.IN_MEMORY, Setup.REDIS)) {
      rows.add(new StartupRow(setup.label, setup, agentJar));
      if (beforeJar != null) {
        rows.add(new StartupRow(setup.label + ", before (" + beforeJar.getFileName() + ")", setup,
            beforeJar));
      }
    }
    return List.copyOf(rows);
  }
}
