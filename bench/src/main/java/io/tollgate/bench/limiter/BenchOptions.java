package io.tollgate.bench.limiter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Command-line options; the defaults are the documented run (about 13 minutes on 2 cores).
 *
 * <pre>
 * --threads 1,4,16,64   concurrency levels
 * --rounds 3            rounds; each measures every contender at every level, figures are medians
 * --warmup 5            seconds of warm-up before a contender's very first interval (the JIT);
 *                       every later interval is preceded by 2 s (new threads and connections)
 * --measure 4           seconds per measured interval
 * --only tollgate,log   only these groups: tollgate, anchor, joint, ceiling, bucket4j, log, leases
 *                       (default: all); leases is one hot subject with local leases off and on;
 *                       joint a call charged to a tenant and a provider, pipelined and in turn
 * --quick               --rounds 1 --warmup 1 --measure 2: checks the wiring, figures not worth
 *                       quoting
 * </pre>
 */
record BenchOptions(List<Integer> threads, int rounds, Duration warmup, Duration measure,
    Set<String> groups) {

  static final Set<String> GROUPS = Set.of("tollgate", "anchor", "joint", "ceiling", "bucket4j",
      "log", "leases");
  /** Warm-up of every interval but a contender's first: the JIT is done by then. */
  static final Duration REWARM = Duration.ofSeconds(2);

  static BenchOptions parse(String[] args) {
    List<Integer> threads = List.of(1, 4, 16, 64);
    int rounds = 3;
    Duration warmup = Duration.ofSeconds(5);
    Duration measure = Duration.ofSeconds(4);
    Set<String> groups = GROUPS;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--threads" -> threads = positiveIntegers(value(args, ++i, "--threads"), "--threads");
        case "--rounds" -> rounds = positiveIntegers(value(args, ++i, "--rounds"), "--rounds")
            .get(0);
        case "--warmup" -> warmup = seconds(value(args, ++i, "--warmup"), "--warmup");
        case "--measure" -> measure = seconds(value(args, ++i, "--measure"), "--measure");
        case "--only" -> groups = groups(value(args, ++i, "--only"));
        case "--quick" -> {
          rounds = 1;
          warmup = Duration.ofSeconds(1);
          measure = Duration.ofSeconds(2);
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + "; known: --threads 1,4,16,64 --rounds N --warmup SECONDS --measure SECONDS"
            + " --only " + String.join(",", new TreeSet<>(GROUPS)) + " --quick");
      }
    }
    if (measure.isZero()) {
      throw new IllegalArgumentException("--measure must be > 0, was 0");
    }
    return new BenchOptions(threads, rounds, warmup, measure, groups);
  }

  boolean runs(String group) {
    return groups.contains(group);
  }

  /** The warm-up before an interval: full for a contender's first, {@link #REWARM} after. */
  Duration warmupBefore(boolean first) {
    return first || warmup.compareTo(REWARM) < 0 ? warmup : REWARM;
  }

  int maxThreads() {
    return threads.stream().mapToInt(Integer::intValue).max().orElseThrow();
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static List<Integer> positiveIntegers(String list, String option) {
    List<Integer> values = new ArrayList<>();
    for (String part : list.split(",")) {
      int value = Integer.parseInt(part.trim());
      if (value <= 0) {
        throw new IllegalArgumentException(option + " must be > 0, was " + list);
      }
      values.add(value);
    }
    return List.copyOf(values);
  }

  private static Set<String> groups(String list) {
    Set<String> groups = new TreeSet<>();
    for (String part : list.split(",")) {
      String group = part.trim().toLowerCase(Locale.ROOT);
      if (!GROUPS.contains(group)) {
        throw new IllegalArgumentException(
            "--only takes " + new TreeSet<>(GROUPS) + ", was " + list);
      }
      groups.add(group);
    }
    return Set.copyOf(groups);
  }

  private static Duration seconds(String value, String option) {
    long seconds = Long.parseLong(value);
    if (seconds < 0) {
      throw new IllegalArgumentException(option + " must be >= 0, was " + value);
    }
    return Duration.ofSeconds(seconds);
  }
}
