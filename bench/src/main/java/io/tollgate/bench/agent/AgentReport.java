package io.tollgate.bench.agent;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Collects the runs and prints them. Per-call figures: each run's p50 and p99; "added" is a
 * setup's figure minus the baseline's of the same round; the tables give the median over rounds.
 * Start-up: medians over repetitions; "added" is the median of the differences with the baseline
 * run of the same repetition (the setups of one repetition run back to back).
 */
final class AgentReport {

  /**
   * The agent's {@code -Dtollgate.debug=true} line; {@code premain} is given by agents that finish
   * their start on a thread of their own (before them, premain was the whole start).
   */
  private static final Pattern BREAKDOWN = Pattern.compile(
      "\\[tollgate] started in (\\d+) ms: configuration (\\d+) ms, gate (\\d+) ms, "
          + "instrumentation (\\d+) ms(?:; premain (\\d+) ms)?");

  private final AgentBenchOptions options;
  private final String loadAtStart;
  private String loadAtEnd = "?";
  private final Map<Setup, long[]> p50 = new EnumMap<>(Setup.class);
  private final Map<Setup, long[]> p99 = new EnumMap<>(Setup.class);
  /** Paired runs: per setup and round, the p50 with the interceptor and without it. */
  private final Map<Setup, long[]> pairedWith = new EnumMap<>(Setup.class);
  private final Map<Setup, long[]> pairedWithout = new EnumMap<>(Setup.class);
  private long[] ping = new long[0];
  private final List<StartupRow> rows;
  /** Per start-up row (same index) and repetition. */
  private final long[][] toMain;
  private final long[][] toFirstCall;
  private final long[][] cpuToFirstCall;
  /**
   * Per row and repetition: the agent's start in total, configuration, gate, instrumentation, and
   * premain's own part (ms).
   */
  private final long[][][] breakdown;

  AgentReport(AgentBenchOptions options, List<StartupRow> rows, String loadAtStart) {
    this.options = options;
    this.rows = rows;
    this.loadAtStart = loadAtStart;
    for (Setup setup : Setup.values()) {
      p50.put(setup, new long[options.rounds()]);
      p99.put(setup, new long[options.rounds()]);
      pairedWith.put(setup, new long[options.rounds()]);
      pairedWithout.put(setup, new long[options.rounds()]);
    }
    toMain = new long[rows.size()][options.startups()];
    toFirstCall = new long[rows.size()][options.startups()];
    cpuToFirstCall = new long[rows.size()][options.startups()];
    breakdown = new long[rows.size()][options.startups()][];
  }

  void latency(Setup setup, int round, long[] nanos) {
    if (nanos.length != options.calls()) {
      throw new IllegalStateException(setup.label + ": " + nanos.length + " latencies, expected "
          + options.calls());
    }
    p50.get(setup)[round] = Stats.median(nanos);
    p99.get(setup)[round] = Stats.percentile(nanos, 99);
  }

  void paired(Setup setup, int round, long[] with, long[] without) {
    if (with.length != options.calls() || without.length != options.calls()) {
      throw new IllegalStateException(setup.label + ": " + with.length + " and " + without.length
          + " paired latencies, expected " + options.calls());
    }
    pairedWith.get(setup)[round] = Stats.median(with);
    pairedWithout.get(setup)[round] = Stats.median(without);
  }

  void redisRoundTrip(long[] nanos) {
    ping = nanos;
  }

  void startup(int row, int rep, ForkedApp.Run run) {
    toMain[row][rep] = run.toMainNanos();
    toFirstCall[row][rep] = run.toFirstCallNanos();
    cpuToFirstCall[row][rep] = run.cpuMillis();
    for (String line : run.agentLines()) {
      Matcher m = BREAKDOWN.matcher(line);
      if (m.lookingAt()) {
        breakdown[row][rep] = new long[] {Long.parseLong(m.group(1)),
            Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4)),
            Long.parseLong(m.group(5) != null ? m.group(5) : m.group(1))};
      }
    }
    if (rows.get(row).setup().agent() && breakdown[row][rep] == null) {
      throw new IllegalStateException(rows.get(row).label() + ": no start-up line from the agent: "
          + run.agentLines());
    }
  }

  void end(String load) {
    loadAtEnd = load;
  }

  String markdown() {
    StringBuilder out = new StringBuilder();
    out.append("Load average (1 min) at start ").append(loadAtStart).append(", at end ")
        .append(loadAtEnd).append(".\n\n");
    if (options.latency()) {
      latencyTable(out);
    }
    if (options.paired()) {
      pairedTable(out);
    }
    if (options.startup()) {
      startupTable(out);
    }
    return out.toString();
  }

  private void latencyTable(StringBuilder out) {
    out.append("#### Per call (").append(options.rounds()).append(" rounds of ")
        .append(options.calls()).append(" calls after ").append(options.warmup())
        .append(" warm-up calls, one JVM per setup and round)\n\n")
        .append("| Setup | p50 µs | p99 µs | added p50 µs | added p99 µs | added p50 per round µs |\n")
        .append("|---|---:|---:|---:|---:|---|\n");
    for (Setup setup : Setup.values()) {
      long[] addedP50 = minus(p50.get(setup), p50.get(Setup.BASELINE));
      long[] addedP99 = minus(p99.get(setup), p99.get(Setup.BASELINE));
      boolean agent = setup.agent();
      out.append("| ").append(setup.label)
          .append(" | ").append(micros(Stats.median(p50.get(setup))))
          .append(" | ").append(micros(Stats.median(p99.get(setup))))
          .append(" | ").append(agent ? micros(Stats.median(addedP50)) : "—")
          .append(" | ").append(agent ? micros(Stats.median(addedP99)) : "—")
          .append(" | ").append(agent ? list(addedP50) : list(p50.get(setup)) + " (p50)")
          .append(" |\n");
    }
    out.append("\nRedis round trip (PING from the benchmark's JVM, Jedis): p50 ")
        .append(micros(Stats.median(ping))).append(" µs, p99 ")
        .append(micros(Stats.percentile(ping, 99))).append(" µs.\n\n");
    perCallTargets(out, "between JVMs", p50, Setup.BASELINE);

  }

  private void pairedTable(StringBuilder out) {
    out.append("#### In one JVM: the same client with and without Tollgate's interceptor, calls "
            + "alternated (").append(options.rounds()).append(" rounds of ").append(options.calls())
        .append(" pairs after ").append(options.warmup()).append(")\n\n")
        .append("| Setup | p50 with µs | p50 without µs | difference p50 µs | per round µs |\n")
        .append("|---|---:|---:|---:|---|\n");
    for (Setup setup : Setup.values()) {
      long[] difference = minus(pairedWith.get(setup), pairedWithout.get(setup));
      out.append("| ").append(setup.label).append(setup.agent() ? "" : " (control: no interceptor "
              + "in either)")
          .append(" | ").append(micros(Stats.median(pairedWith.get(setup))))
          .append(" | ").append(micros(Stats.median(pairedWithout.get(setup))))
          .append(" | ").append(micros(Stats.median(difference)))
          .append(" | ").append(list(difference))
          .append(" |\n");
    }
    out.append('\n');
    // in one JVM, the difference with the same JVM's client without the interceptor
    Map<Setup, long[]> differences = new EnumMap<>(Setup.class);
    for (Setup setup : Setup.values()) {
      differences.put(setup, minus(pairedWith.get(setup), pairedWithout.get(setup)));
    }
    perCallTargets(out, "in one JVM", differences, null);
    if (!options.latency()) {
      out.append("Redis round trip (PING from the benchmark's JVM, Jedis): p50 ")
          .append(micros(Stats.median(ping))).append(" µs.\n\n");
    }
  }

  /**
   * The per-call targets on {@code figures} (per setup and round): added time is the figure minus
   * {@code baseline}'s of the same round, or the figure itself when {@code baseline} is null.
   */
  private void perCallTargets(StringBuilder out, String how, Map<Setup, long[]> figures,
      Setup baseline) {
    long inMemory = added(figures, Setup.IN_MEMORY, baseline);
    long redis = added(figures, Setup.REDIS, baseline);
    long other = added(figures, Setup.OTHER_HOST, baseline);
    long roundTrip = Stats.median(ping);
    out.append("| Target (").append(how).append(") | Measured | Verdict |\n|---|---|---|\n")
        .append(target("≤ 50 µs added per LLM call (p50), in-memory", micros(inMemory) + " µs",
            inMemory <= 50_000))
        .append(target("Redis: ≤ one round trip more than in-memory",
            micros(redis - inMemory) + " µs more; a round trip is " + micros(roundTrip) + " µs",
            redis - inMemory <= roundTrip))
        .append(target("≤ 2 µs per non-provider call (p50)", micros(other) + " µs",
            other <= 2_000))
        .append('\n');
  }

  private static long added(Map<Setup, long[]> figures, Setup setup, Setup baseline) {
    return Stats.median(baseline == null ? figures.get(setup)
        : minus(figures.get(setup), figures.get(baseline)));
  }

  private void startupTable(StringBuilder out) {
    out.append("#### Start-up (").append(options.startups())
        .append(" repetitions; medians; process start to the line arriving)\n\n")
        .append("| Setup | to main() ms | to first call ms | added to main() ms | "
            + "added to first call ms | CPU to first call ms | added CPU ms "
            + "| premain ms | start ms: total (configuration / gate / instrumentation) |\n")
        .append("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    long addedToMain = 0;
    for (int row = 0; row < rows.size(); row++) {
      boolean agent = rows.get(row).setup().agent();
      long[] addedMain = minus(toMain[row], toMain[0]);
      long[] addedFirst = minus(toFirstCall[row], toFirstCall[0]);
      if (row == 1) { // the in-memory setup on the jar under test
        addedToMain = Stats.median(addedMain);
      }
      out.append("| ").append(rows.get(row).label())
          .append(" | ").append(millis(Stats.median(toMain[row])))
          .append(" | ").append(millis(Stats.median(toFirstCall[row])))
          .append(" | ").append(agent ? millis(Stats.median(addedMain)) : "—")
          .append(" | ").append(agent ? millis(Stats.median(addedFirst)) : "—")
          .append(" | ").append(Stats.median(cpuToFirstCall[row]))
          .append(" | ").append(agent
              ? Long.toString(Stats.median(minus(cpuToFirstCall[row], cpuToFirstCall[0]))) : "—")
          .append(" | ").append(agent ? Long.toString(medianOf(breakdown[row], 4)) : "—")
          .append(" | ").append(agent ? start(breakdown[row]) : "—")
          .append(" |\n");
    }
    out.append("\n| Target | Measured | Verdict |\n|---|---|---|\n")
        .append(target("≤ 300 ms added start-up (to main(), in-memory)",
            millis(addedToMain) + " ms", addedToMain <= 300_000_000L))
        .append('\n');
  }

  private static String start(long[][] reps) {
    return medianOf(reps, 0) + " (" + medianOf(reps, 1) + " / " + medianOf(reps, 2) + " / "
        + medianOf(reps, 3) + ")";
  }

  private static long medianOf(long[][] reps, int part) {
    long[] values = new long[reps.length];
    for (int rep = 0; rep < reps.length; rep++) {
      values[rep] = reps[rep][part];
    }
    return Stats.median(values);
  }

  private static String target(String target, String measured, boolean met) {
    return "| " + target + " | " + measured + " | " + (met ? "met" : "**missed**") + " |\n";
  }

  private static long[] minus(long[] values, long[] baseline) {
    long[] differences = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      differences[i] = values[i] - baseline[i];
    }
    return differences;
  }

  private static String list(long[] nanos) {
    List<String> values = new ArrayList<>();
    for (long n : nanos) {
      values.add(micros(n));
    }
    return String.join(" / ", values);
  }

  private static String micros(long nanos) {
    return String.format(Locale.ROOT, "%.1f", nanos / 1_000.0);
  }

  private static String millis(long nanos) {
    return Long.toString(Math.round(nanos / 1_000_000.0));
  }
}
