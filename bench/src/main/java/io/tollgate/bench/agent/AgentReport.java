package io.tollgate.bench.agent;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Collects the runs and prints them. Per-call figures: each run's p50 and p99; "added" is a
 * row's figure minus the baseline's of the same round; the tables give the median over rounds.
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

  /** The whole process's figures, by their index in {@link #part}, as the tables name them. */
  private static final String[] FIGURES = {"wall time, ms", "CPU, ms", "peak RSS, MiB"};

  private final AgentBenchOptions options;
  private final String loadAtStart;
  private String loadAtEnd = "?";
  /** Per per-call row (same index) and round. */
  private final List<Row> perCall;
  private final long[][] p50;
  private final long[][] p99;
  /** Paired runs: per row and round, the p50 with the interceptor and without it. */
  private final long[][] pairedWith;
  private final long[][] pairedWithout;
  /**
   * Paired runs on Redis: per row and round, the p50 of the plain client's calls each preceded by
   * a reserve of the agent's own limiter, in the same JVM (0 where the run had none).
   */
  private final long[][] pairedReference;
  private final long[][] pairedCpuReference;
  /** Per row and round, the calls the warm-up took (at least the option's, until the JIT was quiet). */
  private final long[][] warmUps;
  private final long[][] pairedWarmUps;
  /** Per row and round, the app thread's CPU per measured call (paired: with and without). */
  private final long[][] threadCpu;
  private final long[][] pairedCpuWith;
  private final long[][] pairedCpuWithout;
  private long[] ping = new long[0];
  private long[] reserve = new long[0];
  /** Per round, the p50 of the calls without and with a reserve made before each (AgentBench). */
  private final List<Long> reserveBeforeCallWithout = new ArrayList<>();
  private final List<Long> reserveBeforeCallWith = new ArrayList<>();
  /** The calling thread's CPU a reserve adds to a call, per round. */
  private final List<Long> reserveBeforeCallCpu = new ArrayList<>();
  private final List<Row> rows;
  /** Per start-up row (same index) and repetition. */
  private final long[][] toMain;
  private final long[][] toFirstCall;
  private final long[][] cpuToFirstCall;
  /**
   * Per row and repetition: the agent's start in total, configuration, gate, instrumentation, and
   * premain's own part (ms).
   */
  private final long[][][] breakdown;
  /** Per row and repetition: the whole process, start to exit. */
  private final ForkedApp.Process[][] whole;

  AgentReport(AgentBenchOptions options, List<Row> perCall, List<Row> rows, String loadAtStart) {
    this.options = options;
    this.perCall = perCall;
    this.rows = rows;
    this.loadAtStart = loadAtStart;
    p50 = new long[perCall.size()][options.rounds()];
    p99 = new long[perCall.size()][options.rounds()];
    pairedWith = new long[perCall.size()][options.rounds()];
    pairedWithout = new long[perCall.size()][options.rounds()];
    pairedReference = new long[perCall.size()][options.rounds()];
    pairedCpuReference = new long[perCall.size()][options.rounds()];
    warmUps = new long[perCall.size()][options.rounds()];
    pairedWarmUps = new long[perCall.size()][options.rounds()];
    threadCpu = new long[perCall.size()][options.rounds()];
    pairedCpuWith = new long[perCall.size()][options.rounds()];
    pairedCpuWithout = new long[perCall.size()][options.rounds()];
    toMain = new long[rows.size()][options.startups()];
    toFirstCall = new long[rows.size()][options.startups()];
    cpuToFirstCall = new long[rows.size()][options.startups()];
    breakdown = new long[rows.size()][options.startups()][];
    whole = new ForkedApp.Process[rows.size()][options.startups()];
  }

  void latency(int row, int round, ForkedApp.Run run) {
    long[] nanos = run.latencies();
    warmUps[row][round] = run.warmUpCalls();
    threadCpu[row][round] = run.threadCpuPerCall()[0];
    if (nanos.length != options.calls()) {
      throw new IllegalStateException(perCall.get(row).label() + ": " + nanos.length
          + " latencies, expected " + options.calls());
    }
    p50[row][round] = Stats.median(nanos);
    p99[row][round] = Stats.percentile(nanos, 99);
  }

  void paired(int row, int round, ForkedApp.Run run) {
    long[] with = run.latencies();
    long[] without = run.plainLatencies();
    pairedWarmUps[row][round] = run.warmUpCalls();
    pairedCpuWith[row][round] = run.threadCpuPerCall()[0];
    pairedCpuWithout[row][round] = run.threadCpuPerCall()[1];
    if (with.length != options.calls() || without.length != options.calls()) {
      throw new IllegalStateException(perCall.get(row).label() + ": " + with.length + " and "
          + without.length + " paired latencies, expected " + options.calls());
    }
    pairedWith[row][round] = Stats.median(with);
    pairedWithout[row][round] = Stats.median(without);
    long[] reference = run.referenceLatencies();
    if (reference.length > 0) {
      if (reference.length != options.calls()) {
        throw new IllegalStateException(perCall.get(row).label() + ": " + reference.length
            + " reference latencies, expected " + options.calls());
      }
      pairedReference[row][round] = Stats.median(reference);
      pairedCpuReference[row][round] = run.threadCpuPerCall()[2];
    }
  }

  void redisRoundTrip(long[] pingNanos, long[] reserveNanos) {
    ping = pingNanos;
    reserve = reserveNanos;
  }

  /** One round's calls without and with a reserve made before each. */
  void reserveBeforeCall(ForkedApp.Run run) {
    reserveBeforeCallWithout.add(Stats.median(run.plainLatencies()));
    reserveBeforeCallWith.add(Stats.median(run.latencies()));
    reserveBeforeCallCpu.add(run.threadCpuPerCall()[0] - run.threadCpuPerCall()[1]);
  }

  /** What a reserve made before a call adds to it where the agent's calls run: median of rounds. */
  private long reserveBeforeCallAdds() {
    return Stats.median(reserveBeforeCallAddsPerRound());
  }

  private long[] reserveBeforeCallAddsPerRound() {
    return minus(toArray(reserveBeforeCallWith), toArray(reserveBeforeCallWithout));
  }

  private static long[] toArray(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).toArray();
  }

  void startup(int row, int rep, ForkedApp.Run run) {
    toMain[row][rep] = run.toMainNanos();
    toFirstCall[row][rep] = run.toFirstCallNanos();
    cpuToFirstCall[row][rep] = run.cpuMillis();
    whole[row][rep] = run.whole();
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
    if (!options.jvmOptions().isEmpty()) {
      out.append("Options of every child JVM: `").append(String.join(" ", options.jvmOptions()))
          .append("`.\n\n");
    }
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
        .append(options.calls()).append(" calls after at least ").append(options.warmup())
        .append(" warm-up calls and until the JIT was quiet, one JVM per setup and round)\n\n")
        .append("| Setup | p50 µs | p99 µs | added p50 µs | added p99 µs | added p50 per round µs "
            + "| app thread CPU per call µs | added CPU µs | warm-up calls per round |\n")
        .append("|---|---:|---:|---:|---:|---|---:|---:|---|\n");
    long[][] addedP50 = new long[perCall.size()][];
    long[][] addedCpu = new long[perCall.size()][];
    for (int row = 0; row < perCall.size(); row++) {
      addedP50[row] = minus(p50[row], p50[0]);
      addedCpu[row] = minus(threadCpu[row], threadCpu[0]);
      long[] addedP99 = minus(p99[row], p99[0]);
      boolean agent = perCall.get(row).setup().agent();
      out.append("| ").append(perCall.get(row).label())
          .append(" | ").append(micros(Stats.median(p50[row])))
          .append(" | ").append(micros(Stats.median(p99[row])))
          .append(" | ").append(agent ? micros(Stats.median(addedP50[row])) : "—")
          .append(" | ").append(agent ? micros(Stats.median(addedP99)) : "—")
          .append(" | ").append(agent ? list(addedP50[row]) : list(p50[row]) + " (p50)")
          .append(" | ").append(micros(Stats.median(threadCpu[row])))
          .append(" | ").append(agent ? micros(Stats.median(addedCpu[row])) : "—")
          .append(" | ").append(counts(warmUps[row]))
          .append(" |\n");
    }
    out.append('\n');
    roundTrips(out);
    perCallTargets(out, "between JVMs", addedP50, addedCpu);

  }

  private void pairedTable(StringBuilder out) {
    out.append("#### In one JVM: the same client with and without Tollgate's interceptor, calls "
            + "alternated (").append(options.rounds()).append(" rounds of ").append(options.calls())
        .append(" pairs after at least ").append(options.warmup())
        .append(" and until the JIT was quiet)\n\n")
        .append("| Setup | p50 with µs | p50 without µs | difference p50 µs | per round µs "
            + "| app thread CPU difference per call µs | warm-up pairs per round |\n")
        .append("|---|---:|---:|---:|---|---:|---|\n");
    // in one JVM, the difference with the same JVM's client without the interceptor
    long[][] differences = new long[perCall.size()][];
    long[][] cpuDifferences = new long[perCall.size()][];
    for (int row = 0; row < perCall.size(); row++) {
      differences[row] = minus(pairedWith[row], pairedWithout[row]);
      cpuDifferences[row] = minus(pairedCpuWith[row], pairedCpuWithout[row]);
      out.append("| ").append(perCall.get(row).label())
          .append(perCall.get(row).setup().agent() ? "" : " (control: no interceptor in either)")
          .append(" | ").append(micros(Stats.median(pairedWith[row])))
          .append(" | ").append(micros(Stats.median(pairedWithout[row])))
          .append(" | ").append(micros(Stats.median(differences[row])))
          .append(" | ").append(list(differences[row]))
          .append(" | ").append(micros(Stats.median(cpuDifferences[row])))
          .append(" | ").append(counts(pairedWarmUps[row]))
          .append(" |\n");
    }
    out.append('\n');
    perCallTargets(out, "in one JVM", differences, cpuDifferences);
    sameJvmRoundTrips(out, differences, cpuDifferences);
    if (!options.latency()) {
      roundTrips(out);
    }
  }

  /**
   * The per-call targets on {@code added} (per row and round, the time added to a call), for the
   * jar under test, and the Redis one for the before jar too; {@code cpu} is the calling thread's
   * CPU added, alike.
   */
  private void perCallTargets(StringBuilder out, String how, long[][] added, long[][] cpu) {
    long inMemory = added(added, Setup.IN_MEMORY, options.agentJar());
    long other = added(added, Setup.OTHER_HOST, options.agentJar());
    out.append("| Target (").append(how).append(") | Measured | Verdict |\n|---|---|---|\n")
        .append(target("≤ 50 µs added per LLM call (p50), in-memory", micros(inMemory) + " µs",
            inMemory <= 50_000))
        .append(redisTarget(added, cpu, options.agentJar(), ""));
    if (options.beforeJar() != null) {
      out.append(redisTarget(added, cpu, options.beforeJar(), ", before"));
    }
    out.append(target("≤ 2 µs per non-provider call (p50)", micros(other) + " µs",
            other <= 2_000))
        .append('\n');
  }

  /**
   * Against the round trip the Redis limiter makes on the caller's thread, the reserve (one
   * {@code EVALSHA} of the limiter script), as it costs a call where the agent's calls run: made
   * before each call by the benchmark itself (a reserve alone in a tight loop, and a {@code PING},
   * are shown beside it: both run warmer than a reserve between two calls).
   */
  private String redisTarget(long[][] added, long[][] cpu, Path jar, String which) {
    long more = added(added, Setup.REDIS, jar) - added(added, Setup.IN_MEMORY, jar);
    long cpuMore = added(cpu, Setup.REDIS, jar) - added(cpu, Setup.IN_MEMORY, jar);
    long roundTrip = reserveBeforeCallAdds();
    return target("Redis: ≤ one round trip more than in-memory" + which,
        micros(more) + " µs more; one reserve made before each call adds " + micros(roundTrip)
            + " µs to it (a reserve alone in a tight loop " + micros(Stats.median(reserve))
            + " µs, a PING " + micros(Stats.median(ping)) + " µs). The calling thread's CPU: "
            + micros(cpuMore) + " µs more than in-memory; the reserve's " + micros(reserveCpu())
            + " µs", more <= roundTrip);
  }

  /**
   * The Redis rows' third kind of call: the plain client's call with a reserve of the agent's own
   * limiter before it, interleaved with the other two in the same JVM. The reserve's cost there
   * ({@code reference - without}) is the round trip as the agent makes it, taken with the calls it
   * is compared with; {@code with - reference} is what the interceptor costs besides that round
   * trip, to be set beside what it costs on the in-memory limiter. {@code differences} and {@code
   * cpuDifferences}: per row and round, with minus without, as the paired table has them.
   */
  private void sameJvmRoundTrips(StringBuilder out, long[][] differences,
      long[][] cpuDifferences) {
    for (int row = 0; row < perCall.size(); row++) {
      if (perCall.get(row).setup() != Setup.REDIS || pairedReference[row][0] == 0) {
        continue;
      }
      long[] roundTrip = minus(pairedReference[row], pairedWithout[row]);
      long[] besides = minus(pairedWith[row], pairedReference[row]);
      long[] cpuRoundTrip = minus(pairedCpuReference[row], pairedCpuWithout[row]);
      long[] cpuBesides = minus(pairedCpuWith[row], pairedCpuReference[row]);
      int inMemory = Row.indexOf(perCall, Setup.IN_MEMORY, perCall.get(row).agentJar());
      long inMemoryAdded = Stats.median(differences[inMemory]);
      long inMemoryCpu = Stats.median(cpuDifferences[inMemory]);
      long sameJvmMore = Stats.median(differences[row]) - inMemoryAdded;
      out.append(perCall.get(row).label()).append(", in the same JVM, a third call interleaved "
              + "with the two: the plain client's, preceded by a reserve of a limiter built as the "
              + "agent builds its own (its settle handed over after the body). That reserve adds ")
          .append(micros(Stats.median(roundTrip))).append(" µs (rounds ").append(list(roundTrip))
          .append(") and ").append(micros(Stats.median(cpuRoundTrip)))
          .append(" µs of the thread's CPU; the interceptor costs ")
          .append(micros(Stats.median(besides))).append(" µs (rounds ").append(list(besides))
          .append(") and ").append(micros(Stats.median(cpuBesides)))
          .append(" µs of CPU besides it, against ").append(micros(inMemoryAdded)).append(" µs and ")
          .append(micros(inMemoryCpu)).append(" µs on the in-memory limiter.\n\n")
          .append("| Target (in one JVM, the round trip taken in the same JVM) | Measured | Verdict |\n"
              + "|---|---|---|\n")
          .append(target("Redis: ≤ one round trip more than in-memory" + beforeSuffix(row),
              micros(sameJvmMore) + " µs more; the agent's reserve before a plain call adds "
                  + micros(Stats.median(roundTrip)) + " µs",
              sameJvmMore <= Stats.median(roundTrip)))
          .append('\n');
    }
  }

  private String beforeSuffix(int row) {
    return perCall.get(row).agentJar().equals(options.agentJar()) ? "" : ", before";
  }

  /** The calling thread's CPU one reserve adds to a call where the calls run: median of rounds. */
  private long reserveCpu() {
    return Stats.median(toArray(reserveBeforeCallCpu));
  }

  private void roundTrips(StringBuilder out) {
    out.append("Redis round trips from the benchmark's JVM (Jedis, one at a time): PING p50 ")
        .append(micros(Stats.median(ping))).append(" µs, p99 ")
        .append(micros(Stats.percentile(ping, 99))).append(" µs; the limiter's reserve (one "
            + "EVALSHA, the agent's limits) p50 ")
        .append(micros(Stats.median(reserve))).append(" µs, p99 ")
        .append(micros(Stats.percentile(reserve, 99))).append(" µs. The same reserve made before "
            + "each call to the benchmark's server, without the agent, in a JVM of its own (OkHttp, "
            + "calls alternated with and without it, 20,000 each after 20,000, once per round): p50 ")
        .append(micros(Stats.median(toArray(reserveBeforeCallWithout)))).append(" µs without, ")
        .append(micros(Stats.median(toArray(reserveBeforeCallWith)))).append(" µs with (medians of ")
        .append("rounds): it adds ").append(micros(reserveBeforeCallAdds())).append(" µs (rounds ")
        .append(list(reserveBeforeCallAddsPerRound())).append("), and ").append(micros(reserveCpu()))
        .append(" µs of the calling thread's CPU (rounds ").append(list(toArray(reserveBeforeCallCpu)))
        .append(").\n\n");
  }

  private static String counts(long[] values) {
    StringBuilder joined = new StringBuilder();
    for (long value : values) {
      joined.append(joined.length() == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%,d", value));
    }
    return joined.toString();
  }

  private long added(long[][] added, Setup setup, Path jar) {
    return Stats.median(added[Row.indexOf(perCall, setup, jar)]);
  }

  private void startupTable(StringBuilder out) {
    out.append("#### Start-up (").append(options.startups())
        .append(" repetitions; medians; process start to the line arriving)\n\n")
        .append("| Setup | to main() ms | to first call ms | added to main() ms | "
            + "added to first call ms | CPU to first call ms | added CPU ms "
            + "| premain ms | start ms: total (configuration / gate / instrumentation) |\n")
        .append("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (int row = 0; row < rows.size(); row++) {
      boolean tollgate = rows.get(row).setup().agent();
      boolean added = row > 0;
      long[] addedMain = minus(toMain[row], toMain[0]);
      long[] addedFirst = minus(toFirstCall[row], toFirstCall[0]);
      out.append("| ").append(rows.get(row).label())
          .append(" | ").append(millis(Stats.median(toMain[row])))
          .append(" | ").append(millis(Stats.median(toFirstCall[row])))
          .append(" | ").append(added ? millis(Stats.median(addedMain)) : "—")
          .append(" | ").append(added ? millis(Stats.median(addedFirst)) : "—")
          .append(" | ").append(Stats.median(cpuToFirstCall[row]))
          .append(" | ").append(added
              ? Long.toString(Stats.median(minus(cpuToFirstCall[row], cpuToFirstCall[0]))) : "—")
          .append(" | ").append(tollgate ? Long.toString(medianOf(breakdown[row], 4)) : "—")
          .append(" | ").append(tollgate ? start(breakdown[row]) : "—")
          .append(" |\n");
    }
    wholeProcessTable(out);
  }

  /**
   * The whole process, as an app's user sees it: start to exit, the CPU it used and its peak
   * resident memory, each added to the baseline's in the same repetition; then Tollgate's
   * additions (in memory) as a share of the OpenTelemetry agent's.
   */
  private void wholeProcessTable(StringBuilder out) {
    out.append("\n#### The whole process (medians of the differences to the baseline, per "
            + "repetition)\n\n")
        .append("| Setup | start to exit ms | CPU ms | peak RSS MiB | added wall ms "
            + "| added CPU ms | added RSS MiB |\n")
        .append("|---|---:|---:|---:|---:|---:|---:|\n");
    for (int row = 0; row < rows.size(); row++) {
      boolean added = row > 0;
      out.append("| ").append(rows.get(row).label());
      for (int figure = 0; figure < FIGURES.length; figure++) {
        out.append(" | ").append(shown(figure, Stats.median(part(row, figure))));
      }
      for (int figure = 0; figure < FIGURES.length; figure++) {
        out.append(" | ").append(added ? shown(figure, addedPart(row, figure)) : "—");
      }
      out.append(" |\n");
    }
    int tollgate = Row.indexOf(rows, Setup.IN_MEMORY, options.agentJar());
    int otel = Row.indexOf(rows, Setup.OTEL_AGENT, null);
    out.append("\n| Target: Tollgate (in memory) adds at most a third of what the OpenTelemetry "
        + "agent adds | Tollgate | OpenTelemetry agent | Verdict |\n|---|---:|---:|---|\n");
    for (int figure = 0; figure < FIGURES.length; figure++) {
      long added = addedPart(tollgate, figure);
      long anchor = addedPart(otel, figure);
      out.append("| ").append(FIGURES[figure]).append(" | ").append(shown(figure, added))
          .append(" | ").append(shown(figure, anchor)).append(" | ")
          .append(3 * added <= anchor ? "met" : "**missed**").append(" |\n");
    }
    out.append('\n');
    for (int row = 0; row < rows.size(); row++) {
      if (rows.get(row).setup() == Setup.TOKENIZER_ONLY) {
        tokenizerFloor(out, row, tollgate, otel);
      }
    }
  }

  /**
   * What jtokkit's load adds on its own, without an agent, as a share of what the OpenTelemetry
   * agent adds, beside Tollgate's share: the part of Tollgate's that the tokenizer sets.
   */
  private void tokenizerFloor(StringBuilder out, int tokenizer, int tollgate, int otel) {
    out.append("| jtokkit loading o200k_base beside the app, no agent | added | share of the "
            + "OpenTelemetry agent's | Tollgate's share |\n|---|---:|---:|---:|\n");
    for (int figure = 0; figure < FIGURES.length; figure++) {
      long added = addedPart(tokenizer, figure);
      long anchor = addedPart(otel, figure);
      out.append("| ").append(FIGURES[figure]).append(" | ").append(shown(figure, added)).append(" | ")
          .append(percent(added, anchor)).append(" | ")
          .append(percent(addedPart(tollgate, figure), anchor)).append(" |\n");
    }
    out.append('\n');
  }

  /** A figure of {@link #part} as the tables show it: ms, ms, MiB. */
  private static String shown(int figure, long value) {
    return switch (figure) {
      case 0 -> millis(value);
      case 1 -> Long.toString(value);
      default -> mebibytes(value);
    };
  }

  private static String percent(long part, long whole) {
    return whole <= 0 ? "—" : Math.round(100.0 * part / whole) + " %";
  }

  /** One figure of the whole process in each repetition: 0 wall ns, 1 CPU ms, 2 peak RSS KiB. */
  private long[] part(int row, int figure) {
    long[] values = new long[whole[row].length];
    for (int rep = 0; rep < values.length; rep++) {
      ForkedApp.Process process = whole[row][rep];
      values[rep] = switch (figure) {
        case 0 -> process.toExitNanos();
        case 1 -> process.cpuMillis();
        default -> process.peakRssKb();
      };
    }
    return values;
  }

  private long addedPart(int row, int figure) {
    return Stats.median(minus(part(row, figure), part(0, figure)));
  }

  private static String mebibytes(long kib) {
    return String.format(Locale.ROOT, "%.1f", kib / 1024.0);
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
