package io.tollgate.bench.limiter;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The targets, checked against what this run measured. They are checked as written, at 16
 * threads, against the reserve alone (the call that decides); reserve + settle is shown beside
 * them for context.
 */
final class Targets {

  static final int AT_THREADS = 16;
  static final double SHARE_OF_CEILING = 0.85;
  static final double P99_MICROS = 1_000;
  static final double TIMES_SORTED_SET_LOG = 10;
  static final long BYTES_PER_SUBJECT = 256;

  /** One line of the targets table. */
  record Check(String target, String measured, String verdict) {}

  private Targets() {}

  static List<Check> check(List<Measurement> results, List<MemoryPerSubject.Row> memory) {
    List<Check> checks = new ArrayList<>();
    Optional<Measurement> reserve = find(results, "Tollgate reserve");
    Optional<Measurement> settle = find(results, "Tollgate reserve + settle");
    Optional<Measurement> ceiling = find(results, "redis-benchmark EVALSHA (ceiling)");
    Optional<Measurement> log = find(results, "Sorted-set log, 1,000 entries");

    if (reserve.isPresent() && ceiling.isPresent()) {
      double share = reserve.get().opsPerSecond() / ceiling.get().opsPerSecond();
      checks.add(new Check("≥ 85 % of the raw EVALSHA ceiling at 16 threads",
          String.format("%s of %s ops/s = %.0f %%", Report.ops(reserve.get()),
              Report.ops(ceiling.get()), share * 100),
          verdict(share >= SHARE_OF_CEILING, String.format("%.0f percentage points short",
              (SHARE_OF_CEILING - share) * 100))));
    }
    settle.ifPresent(s -> ceiling.ifPresent(c -> checks.add(new Check(
        "(context) reserve + settle, in EVALSHA/s, vs the ceiling",
        String.format("2 × %s = %,.0f EVALSHA/s = %.0f %%", Report.ops(s), 2 * s.opsPerSecond(),
            200 * s.opsPerSecond() / c.opsPerSecond()), "—"))));
    reserve.ifPresent(r -> checks.add(new Check("p99 < 1 ms at 16 threads",
        String.format("p99 %,.0f µs", r.p99()),
        verdict(r.p99() < P99_MICROS, String.format("%.1f× the target", r.p99() / P99_MICROS)))));
    settle.ifPresent(s -> checks.add(new Check("(context) p99 of reserve + settle at 16 threads",
        String.format("p99 %,.0f µs", s.p99()), "—")));
    if (reserve.isPresent() && log.isPresent()) {
      double times = reserve.get().opsPerSecond() / log.get().opsPerSecond();
      checks.add(new Check("≥ 10× the sorted-set log at 1,000 entries (16 threads)",
          String.format("%s vs %s ops/s = %.1f×", Report.ops(reserve.get()), Report.ops(log.get()),
              times),
          verdict(times >= TIMES_SORTED_SET_LOG, String.format("%.0f %% short of 10×",
              (1 - times / TIMES_SORTED_SET_LOG) * 100))));
    }
    memory.stream().filter(row -> row.what().startsWith("Tollgate state")).findFirst()
        .ifPresent(row -> checks.add(new Check("≤ 256 bytes of Redis per subject (dual per-minute)",
            row.bytes() + " bytes", verdict(row.bytes() <= BYTES_PER_SUBJECT,
                (row.bytes() - BYTES_PER_SUBJECT) + " bytes over"))));
    return checks;
  }

  private static Optional<Measurement> find(List<Measurement> results, String scenario) {
    return results.stream()
        .filter(m -> m.scenario().equals(scenario) && m.concurrency() == AT_THREADS)
        .findFirst();
  }

  private static String verdict(boolean met, String shortfall) {
    return met ? "met" : "**missed** (" + shortfall + ")";
  }
}
