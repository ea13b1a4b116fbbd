package io.tollgate.bench.limiter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Command-line options; the defaults are the documented run (about 12 minutes on 2 cores).
 *
 * <pre>
 * --threads 1,4,16,64   concurrency levels, each run in turn for every scenario
 * --warmup 5            seconds of warm-up before a scenario's first measured interval (thrown
 *                       away); later concurrency levels of the same scenario warm up for 2 s
 * --measure 10          seconds measured at each concurrency level
 * --retry-budget 150    seconds the run may spend re-measuring rows that other processes disturbed
 * --quick               --warmup 1 --measure 2 --retry-budget 0: checks the wiring, figures not
 *                       worth quoting
 * --only tollgate,log    only these groups: tollgate, ceiling, bucket4j, log (default: all)
 * </pre>
 */
record BenchOptions(List<Integer> threads, Duration warmup, Duration measure, Duration retryBudget,
    Set<String> groups) {

  /** Warm-up of later concurrency levels: the JIT is done; new connections and threads settle. */
  static final Duration REWARM = Duration.ofSeconds(2);

  static final Set<String> GROUPS = Set.of("tollgate", "ceiling", "bucket4j", "log");

  static BenchOptions parse(String[] args) {
    List<Integer> threads = List.of(1, 4, 16, 64);
    Duration warmup = Duration.ofSeconds(5);
    Duration measure = Duration.ofSeconds(10);
    Duration retryBudget = Duration.ofSeconds(150);
    Set<String> groups = GROUPS;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--threads" -> threads = integers(value(args, ++i, "--threads"));
        case "--warmup" -> warmup = seconds(value(args, ++i, "--warmup"), "--warmup");
        case "--measure" -> measure = seconds(value(args, ++i, "--measure"), "--measure");
        case "--retry-budget" ->
            retryBudget = seconds(value(args, ++i, "--retry-budget"), "--retry-budget");
        case "--only" -> groups = groups(value(args, ++i, "--only"));
        case "--quick" -> {
          warmup = Duration.ofSeconds(1);
          measure = Duration.ofSeconds(2);
          retryBudget = Duration.ZERO;
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + "; known: --threads 1,4,16,64 --warmup SECONDS --measure SECONDS"
            + " --retry-budget SECONDS --quick"
            + " --only " + String.join(",", new TreeSet<>(GROUPS)));
      }
    }
    if (measure.isZero()) {
      throw new IllegalArgumentException("--measure must be > 0, was 0");
    }
    return new BenchOptions(threads, warmup, measure, retryBudget, groups);
  }

  boolean runs(String group) {
    return groups.contains(group);
  }

  /** The warm-up before measuring {@code threads}: full for a scenario's first level only. */
  Duration warmupBefore(int threads) {
    boolean first = threads == this.threads.get(0);
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

  private static List<Integer> integers(String list) {
    List<Integer> values = new ArrayList<>();
    for (String part : list.split(",")) {
      int value = Integer.parseInt(part.trim());
      if (value <= 0) {
        throw new IllegalArgumentException("--threads must all be > 0, was " + list);
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
        throw new IllegalArgumentException("--only takes " + new TreeSet<>(GROUPS) + ", was " + list);
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
