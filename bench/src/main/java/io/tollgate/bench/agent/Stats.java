package io.tollgate.bench.agent;

import java.util.Arrays;

/** Order statistics of a sample (nearest rank). */
final class Stats {

  private Stats() {}

  static long percentile(long[] values, double percent) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  static long median(long[] values) {
    return percentile(values, 50);
  }
}
