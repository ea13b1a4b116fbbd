package io.tollgate.router.internal;

import java.util.Arrays;

/**
 * Latencies in log-spaced buckets, four per doubling from 1 ms to 2^20 ms (about 17 minutes), so a
 * quantile is known within 19% in fixed memory whatever the traffic. Weights are added by the
 * caller, already forward-decayed; not thread-safe (its owner holds the lock).
 */
final class LatencyHistogram {

  static final int BUCKETS_PER_DOUBLING = 4;
  static final int DOUBLINGS = 20;

  /** Upper bound of each bucket in nanoseconds: 2^(i/4) ms; the last also takes anything longer. */
  private static final long[] BOUNDS = new long[BUCKETS_PER_DOUBLING * DOUBLINGS + 1];

  static {
    for (int i = 0; i < BOUNDS.length; i++) {
      // Math.pow is exact for whole powers of two, so 128 ms is a bound of its own.
      BOUNDS[i] = Math.round(1_000_000.0 * Math.pow(2.0, (double) i / BUCKETS_PER_DOUBLING));
    }
  }

  private final double[] weights = new double[BOUNDS.length];
  private double total;

  void add(long nanos, double weight) {
    weights[bucket(nanos)] += weight;
    total += weight;
  }

  /** Multiplies every weight by {@code factor}: the owner's rescaling of its decay landmark. */
  void scale(double factor) {
    for (int i = 0; i < weights.length; i++) {
      weights[i] *= factor;
    }
    total *= factor;
  }

  boolean isEmpty() {
    return total == 0.0;
  }

  /**
   * The upper bound of the bucket holding quantile {@code q}: the smallest bound with at least
   * {@code q} of the weight at or below it. Decay scales all weights alike, so it need not be applied.
   */
  long quantileNanos(double q) {
    double wanted = q * total;
    double cumulative = 0.0;
    for (int i = 0; i < weights.length; i++) {
      cumulative += weights[i];
      if (weights[i] > 0.0 && cumulative >= wanted) {
        return BOUNDS[i];
      }
    }
    return BOUNDS[BOUNDS.length - 1]; // rounding left a sliver above the last non-empty bucket
  }

  private static int bucket(long nanos) {
    int found = Arrays.binarySearch(BOUNDS, nanos);
    int index = found >= 0 ? found : -found - 1;
    return Math.min(index, BOUNDS.length - 1);
  }
}
