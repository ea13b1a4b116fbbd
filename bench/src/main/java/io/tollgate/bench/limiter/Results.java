package io.tollgate.bench.limiter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Every measurement of the run, by contender and concurrency, in round order; and their medians.
 *
 * <p>Why rounds and medians: on a shared 2-core machine a neighbour's build can take a core for a
 * minute. Each round measures every contender at one concurrency back to back, so a pair being
 * compared is measured minutes apart at most, and the median of three rounds discards one
 * disturbed round.
 */
final class Results {

  private record Key(String name, int concurrency) {}

  private final Map<Key, List<Measurement>> byRow = new LinkedHashMap<>();

  void add(Measurement m) {
    byRow.computeIfAbsent(new Key(m.scenario(), m.concurrency()), k -> new ArrayList<>()).add(m);
  }

  /** Contender names in the order they were first measured. */
  Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    byRow.keySet().forEach(key -> names.add(key.name()));
    return names;
  }

  List<Measurement> rounds(String name, int concurrency) {
    return byRow.getOrDefault(new Key(name, concurrency), List.of());
  }

  /**
   * The median of each figure over the rounds (not one round's figures): robust to one disturbed
   * round. The max is the worst of all rounds; denials and errors are summed; the note is the last
   * round's.
   */
  Optional<Measurement> median(String name, int concurrency) {
    List<Measurement> rounds = rounds(name, concurrency);
    if (rounds.isEmpty()) {
      return Optional.empty();
    }
    Measurement last = rounds.get(rounds.size() - 1);
    double seconds = median(rounds, Measurement::seconds);
    return Optional.of(new Measurement(name, concurrency,
        Math.round(median(rounds, Measurement::opsPerSecond) * seconds), seconds,
        median(rounds, Measurement::p50), median(rounds, Measurement::p99),
        median(rounds, Measurement::p999),
        rounds.stream().mapToDouble(Measurement::max).max().orElseThrow(),
        rounds.stream().mapToLong(Measurement::denied).sum(),
        rounds.stream().mapToLong(Measurement::errors).sum(),
        median(rounds, Measurement::redisCores) * seconds,
        median(rounds, Measurement::clientCores) * seconds,
        median(rounds, m -> m.machineCpu() / m.seconds()) * seconds,
        median(rounds, Measurement::scriptMicros),
        Math.round(median(rounds, Measurement::scriptCallsPerOp)
            * median(rounds, Measurement::opsPerSecond) * seconds),
        last.note()));
  }

  /** Median of {@code a / b} per round, where both were measured in the same round. */
  Optional<Double> medianRatio(String a, String b, int concurrency,
      ToDoubleFunction<Measurement> figure) {
    List<Double> ratios = ratios(a, b, concurrency, figure);
    return ratios.isEmpty() ? Optional.empty() : Optional.of(median(ratios, r -> r));
  }

  /** The same ratio per round, for showing the spread. */
  List<Double> ratios(String a, String b, int concurrency, ToDoubleFunction<Measurement> figure) {
    List<Measurement> as = rounds(a, concurrency);
    List<Measurement> bs = rounds(b, concurrency);
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < Math.min(as.size(), bs.size()); i++) {
      ratios.add(figure.applyAsDouble(as.get(i)) / figure.applyAsDouble(bs.get(i)));
    }
    return ratios;
  }

  private static <T> double median(List<T> values, ToDoubleFunction<T> figure) {
    double[] sorted = values.stream().mapToDouble(figure).filter(v -> !Double.isNaN(v)).sorted()
        .toArray();
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
