package io.tollgate.bench.limiter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The results as markdown tables, ready to paste into docs/benchmarks.md. */
final class Report {

  private Report() {}

  static String render(Machine machine, BenchOptions options, List<Measurement> results,
      List<MemoryPerSubject.Row> memory, List<Targets.Check> targets) {
    StringBuilder out = new StringBuilder();
    out.append(String.format("Machine: %d cores, %s; Redis %s; %s. Warm-up %d s, measured %d s per "
            + "row; %,d subjects, each 1 request + %,d tokens per call.%n%n", machine.cores(),
        machine.cpu(), machine.redis(), machine.jdk(), options.warmup().toSeconds(),
        options.measure().toSeconds(), Workload.SUBJECTS, Workload.ESTIMATE));
    throughputByThreads(out, options, results);
    details(out, results);
    memory(out, memory);
    targets(out, targets);
    return out.toString();
  }

  private static void throughputByThreads(StringBuilder out, BenchOptions options,
      List<Measurement> results) {
    out.append("### Operations per second\n\n| Scenario |");
    options.threads().forEach(t -> out.append(' ').append(t).append(" thr |"));
    out.append("\n|---|");
    options.threads().forEach(t -> out.append("---:|"));
    out.append('\n');
    Map<String, Map<Integer, Measurement>> byScenario = new LinkedHashMap<>();
    results.forEach(m -> byScenario.computeIfAbsent(m.scenario(), s -> new LinkedHashMap<>())
        .put(m.concurrency(), m));
    byScenario.forEach((scenario, row) -> {
      out.append("| ").append(scenario).append(" |");
      options.threads().forEach(t -> out.append(' ')
          .append(row.containsKey(t) ? ops(row.get(t)) : "—").append(" |"));
      out.append('\n');
    });
    out.append('\n');
  }

  private static void details(StringBuilder out, List<Measurement> results) {
    out.append("### Latency and CPU\n\n")
        .append("| Scenario | Thr | ops/s | p50 µs | p99 µs | p99.9 µs | max µs | Redis CPU | "
            + "Redis µs/op | Script µs/call | Client CPU | Other CPU | Notes |\n")
        .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (Measurement m : results) {
      List<String> notes = new ArrayList<>();
      if (m.denied() > 0) {
        notes.add(String.format("%,d denied", m.denied()));
      }
      if (m.errors() > 0) {
        notes.add(String.format("%,d errors", m.errors()));
      }
      if (!m.note().isEmpty()) {
        notes.add(m.note());
      }
      out.append(String.format(
          "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
          m.scenario(), m.concurrency(), ops(m), micros(m.p50()), micros(m.p99()),
          micros(m.p999()), micros(m.max()), cores(m.redisCores()), micros(m.redisMicrosPerOp()),
          micros(m.scriptMicros()), cores(m.clientCores()), cores(m.otherCores()),
          String.join("; ", notes)));
    }
    out.append('\n');
  }

  private static void memory(StringBuilder out, List<MemoryPerSubject.Row> memory) {
    out.append("### Redis memory per subject (MEMORY USAGE … SAMPLES 0)\n\n")
        .append("| State | Bytes | Notes |\n|---|---:|---|\n");
    memory.forEach(row -> out.append(String.format("| %s | %,d | %s |%n", row.what(), row.bytes(),
        row.note())));
    out.append('\n');
  }

  private static void targets(StringBuilder out, List<Targets.Check> targets) {
    out.append("### Targets\n\n| Target | Measured | Verdict |\n|---|---|---|\n");
    targets.forEach(check -> out.append(String.format("| %s | %s | %s |%n", check.target(),
        check.measured(), check.verdict())));
  }

  static String ops(Measurement m) {
    return String.format("%,.0f", m.opsPerSecond());
  }

  private static String micros(double value) {
    if (Double.isNaN(value)) {
      return "—";
    }
    return value < 10 ? String.format("%.1f", value) : String.format("%,.0f", value);
  }

  private static String cores(double value) {
    return Double.isNaN(value) ? "—" : String.format("%.2f", value);
  }
}
