package io.tollgate.bench.limiter;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The targets, checked against this run: at 16 threads, on the reserve alone (the call that
 * decides), each ratio taken within a round and then the median over rounds, with every round's
 * value shown. Reserve + settle is given beside them for context.
 */
final class Targets {

  static final int AT_THREADS = 16;
  static final double P99_MICROS = 1_000;
  static final double TIMES_SORTED_SET_LOG = 10;
  static final long BYTES_PER_SUBJECT = 256;
  /** The target for a whole call against one decision of the plain bucket (12 of 16.8). */
  static final double CALL_SHARE_OF_BUCKET = 12 / 16.8;
  /** "Level": within 5 % either way. */
  static final double LEVEL = 0.95;
  static final double DECISIONS_PER_SECOND = 1_000_000;
  static final double LEASED_REDIS_CPU_DIVISOR = 10;

  private static final String LOG_1000 = SlidingLogScenario.name(1_000);

  /** One line of the targets table. */
  record Check(String target, String measured, String verdict) {}

  private Targets() {}

  static List<Check> check(Results results, List<MemoryPerSubject.Row> memory) {
    List<Check> checks = new ArrayList<>();
    String reserve = TollgateScenario.RESERVE;
    String settle = TollgateScenario.RESERVE_AND_SETTLE;
    String ceiling = RedisBenchmarkCeiling.NAME;

    results.medianRatio(reserve, ceiling, AT_THREADS, Measurement::opsPerSecond).ifPresent(share ->
        checks.add(new Check("(context) reserves/s vs EVALSHA of an empty script at 16 threads",
            percent(share) + " (rounds: " + percents(results.ratios(reserve, ceiling, AT_THREADS,
                Measurement::opsPerSecond)) + ")", "—")));

    results.median(reserve, AT_THREADS).ifPresent(m -> checks.add(new Check(
        "p99 < 1 ms at 16 threads", String.format("%,.0f µs (rounds: %s)", m.p99(),
            results.rounds(reserve, AT_THREADS).stream()
                .map(r -> String.format("%,.0f", r.p99())).collect(Collectors.joining(", "))),
        verdict(m.p99() < P99_MICROS, String.format("%.1f× the target", m.p99() / P99_MICROS)))));
    results.median(settle, AT_THREADS).ifPresent(m -> checks.add(new Check(
        "(context) p99 of reserve + settle at 16 threads", String.format("%,.0f µs", m.p99()),
        "—")));

    results.medianRatio(reserve, LOG_1000, AT_THREADS, Measurement::opsPerSecond).ifPresent(
        times -> checks.add(new Check("≥ 10× the sorted-set log at 1,000 entries (16 threads)",
            String.format("%.1f× (rounds: %s)", times, results.ratios(reserve, LOG_1000,
                AT_THREADS, Measurement::opsPerSecond).stream()
                .map(r -> String.format("%.1f×", r)).collect(Collectors.joining(", "))),
            verdict(times >= TIMES_SORTED_SET_LOG, String.format("%.0f %% short of 10×",
                (1 - times / TIMES_SORTED_SET_LOG) * 100)))));
    results.medianRatio(LOG_1000, reserve, AT_THREADS, Measurement::redisMicrosPerOp).ifPresent(
        times -> checks.add(new Check("(context) the same in Redis CPU per operation",
            String.format("the log costs Redis %.1f× what a reserve does", times), "—")));

    anchor(results, checks);
    leases(results, checks);

    Optional<MemoryPerSubject.Row> state = memory.stream()
        .filter(row -> row.what().equals(MemoryPerSubject.TOLLGATE_STATE)).findFirst();
    state.ifPresent(row -> checks.add(new Check(
        "≤ 256 bytes of Redis per subject (dual per-minute)",
        row.bytes() + " bytes", verdict(row.bytes() <= BYTES_PER_SUBJECT,
            (row.bytes() - BYTES_PER_SUBJECT) + " bytes over"))));
    return checks;
  }

  /**
   * Against the plain Lua bucket (the anchor harness's), at 16 and 64 threads: a whole call
   * (reserve + settle) costs Redis at most 12/16.8 of one bucket decision, is at least as fast, and
   * the reserve alone is level with the bucket in throughput and p99.
   */
  private static void anchor(Results results, List<Check> checks) {
    String call = TollgateScenario.RESERVE_AND_SETTLE;
    String reserve = TollgateScenario.RESERVE;
    String bucket = PlainBucketScenario.NAME;
    for (int threads : new int[] {AT_THREADS, 64}) {
      results.medianRatio(call, bucket, threads, Measurement::redisMicrosPerOp).ifPresent(share ->
          checks.add(new Check(String.format(
              "Redis CPU per call ≤ %.2f× the plain bucket's per decision (%d threads)",
              CALL_SHARE_OF_BUCKET, threads), String.format("%.2f×", share),
              verdict(share <= CALL_SHARE_OF_BUCKET, String.format("%.2f× over", share
                  - CALL_SHARE_OF_BUCKET)))));
      results.medianRatio(call, bucket, threads, Measurement::opsPerSecond).ifPresent(times ->
          checks.add(new Check(String.format("calls/s ≥ the plain bucket's decisions/s (%d threads)",
              threads), String.format("%.2f×", times),
              verdict(times >= 1, String.format("%.0f %% short", (1 - times) * 100)))));
    }
    results.medianRatio(reserve, bucket, AT_THREADS, Measurement::opsPerSecond).ifPresent(times ->
        results.medianRatio(reserve, bucket, AT_THREADS, Measurement::p99).ifPresent(p99 ->
            checks.add(new Check("reserve level with the plain bucket (16 threads)",
                String.format("%.2f× its throughput, %.2f× its p99", times, p99),
                verdict(times >= LEVEL && p99 <= 1 / LEVEL,
                    "more than 5 % behind")))));
  }

  /** With leases on, one JVM decides ≥ 1 M times a second, and each decision costs Redis 10× less. */
  private static void leases(Results results, List<Check> checks) {
    String on = HotSubjectScenario.ON;
    String off = HotSubjectScenario.OFF;
    results.median(on, AT_THREADS).ifPresent(m -> checks.add(new Check(
        "≥ 1 M decisions/s in one JVM, one hot subject, leases on (16 threads)",
        String.format("%s/s (rounds: %s)", Report.ops(m), results.rounds(on, AT_THREADS).stream()
            .map(Report::ops).collect(Collectors.joining(", "))),
        verdict(m.opsPerSecond() >= DECISIONS_PER_SECOND, String.format("%.0f %% short",
            (1 - m.opsPerSecond() / DECISIONS_PER_SECOND) * 100)))));
    results.medianRatio(off, on, AT_THREADS, Measurement::redisMicrosPerOp).ifPresent(times ->
        checks.add(new Check("Redis CPU per decision down ≥ 10× with leases (16 threads)",
            String.format("%,.0f× (rounds: %s)", times, results.ratios(off, on, AT_THREADS,
                Measurement::redisMicrosPerOp).stream().map(r -> String.format("%,.0f×", r))
                .collect(Collectors.joining(", "))),
            verdict(times >= LEASED_REDIS_CPU_DIVISOR, String.format("%.1f× short of 10×",
                LEASED_REDIS_CPU_DIVISOR - times)))));
  }

  private static String percent(double share) {
    return String.format("%.0f %%", share * 100);
  }

  private static String percents(List<Double> shares) {
    return shares.stream().map(Targets::percent).collect(Collectors.joining(", "));
  }

  private static String verdict(boolean met, String shortfall) {
    return met ? "met" : "**missed** (" + shortfall + ")";
  }
}
