package io.tollgate.bench.limiter;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** The results as markdown tables, ready to paste into docs/benchmarks.md. */
final class Report {

  private Report() {}

  static String render(Machine machine, BenchOptions options, Results results,
      List<MemoryPerSubject.Row> memory, List<Targets.Check> targets) {
    StringBuilder out = new StringBuilder();
    out.append(String.format("Machine: %d cores, %s; Redis %s; %s.%n", machine.cores(),
        machine.cpu(), machine.redis(), machine.jdk()));
    String subjects = options.groups().equals(Set.of("leases")) ? "one subject"
        : String.format("%,d subjects%s", Workload.SUBJECTS,
            options.runs("leases") ? " (one for the hot-subject rows)" : "");
    out.append(String.format("Medians of %d rounds; each interval %d s after %d s of warm-up "
            + "(%d s before a contender's first); %s, each call 1 request + %,d tokens.%n%n",
        options.rounds(), options.measure().toSeconds(), BenchOptions.REWARM.toSeconds(),
        options.warmup().toSeconds(), subjects, Workload.ESTIMATE));
    throughput(out, options, results);
    details(out, options, results);
    leases(out, options, results);
    memory(out, memory);
    targets(out, targets);
    return out.toString();
  }

  private static void throughput(StringBuilder out, BenchOptions options, Results results) {
    out.append("### Operations per second (median of rounds)\n\n| Contender |");
    options.threads().forEach(t -> out.append(' ').append(t).append(" thr |"));
    out.append("\n|---|");
    options.threads().forEach(t -> out.append("---:|"));
    out.append('\n');
    for (String name : results.names()) {
      out.append("| ").append(name).append(" |");
      options.threads().forEach(t -> out.append(' ')
          .append(results.median(name, t).map(Report::ops).orElse("—")).append(" |"));
      out.append('\n');
    }
    out.append('\n');
  }

  private static void details(StringBuilder out, BenchOptions options, Results results) {
    out.append("### Latency and CPU (medians; max is the worst of all rounds)\n\n")
        .append("| Contender | Thr | ops/s | ops/s per round | p50 µs | p99 µs | p99.9 µs | max µs "
            + "| Redis CPU | Redis µs/op | Script µs/call | Client CPU | Other CPU | Notes |\n")
        .append("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (String name : results.names()) {
      for (int threads : options.threads()) {
        Optional<Measurement> median = results.median(name, threads);
        if (median.isEmpty()) {
          continue;
        }
        Measurement m = median.get();
        String perRound = results.rounds(name, threads).stream().map(Report::ops)
            .collect(Collectors.joining(" / "));
        out.append(String.format(
            "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
            name, threads, ops(m), perRound, micros(m.p50()), micros(m.p99()), micros(m.p999()),
            micros(m.max()), cores(m.redisCores()), micros(m.redisMicrosPerOp()),
            micros(m.scriptMicros()), cores(m.clientCores()), cores(m.otherCores()), notes(m)));
      }
    }
    out.append('\n');
  }

  /**
   * One hot subject with leases off and on, side by side: decisions per second, and what each
   * decision costs Redis (CPU, and script calls), with more digits than the main table shows.
   */
  private static void leases(StringBuilder out, BenchOptions options, Results results) {
    if (results.rounds(HotSubjectScenario.ON, options.threads().get(0)).isEmpty()) {
      return;
    }
    out.append("### Leases: one hot subject (medians)\n\n")
        .append("| Operation | Thr | ops/s off | ops/s on | × | Redis CPU ns/op off | on | ÷ "
            + "| script calls per 1,000 ops off | on |\n")
        .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    String[][] pairs = {
        {"reserve", HotSubjectScenario.OFF, HotSubjectScenario.ON},
        {"reserve + settle", HotSubjectScenario.OFF + ", reserve + settle",
            HotSubjectScenario.ON + ", reserve + settle"}};
    for (String[] pair : pairs) {
      for (int threads : options.threads()) {
        Optional<Measurement> off = results.median(pair[1], threads);
        Optional<Measurement> on = results.median(pair[2], threads);
        if (off.isEmpty() || on.isEmpty()) {
          continue;
        }
        Measurement a = off.get();
        Measurement b = on.get();
        out.append(String.format("| %s | %d | %s | %s | %.0f× | %,.1f | %,.2f | %,.0f | %,.1f | %,.3f |%n",
            pair[0], threads, ops(a), ops(b), b.opsPerSecond() / a.opsPerSecond(),
            a.redisMicrosPerOp() * 1000, b.redisMicrosPerOp() * 1000,
            a.redisMicrosPerOp() / b.redisMicrosPerOp(), a.scriptCallsPerOp() * 1000,
            b.scriptCallsPerOp() * 1000));
      }
    }
    out.append('\n');
  }

  private static String notes(Measurement m) {
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
    return String.join("; ", notes);
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
