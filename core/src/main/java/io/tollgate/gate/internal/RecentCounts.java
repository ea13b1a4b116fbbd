package io.tollgate.gate.internal;

/**
 * Counts per second over the last five minutes: a ring of one slot per second, each stamped with
 * the second it counts, so a slot left from an earlier lap counts nothing.
 */
public final class RecentCounts {

  /** How far back it counts. */
  public static final int SECONDS = 300;

  private final long[] stamps = new long[SECONDS];
  private final long[] counts = new long[SECONDS];

  public synchronized void add(long epochSecond) {
    int slot = (int) Math.floorMod(epochSecond, (long) SECONDS);
    if (stamps[slot] != epochSecond) {
      stamps[slot] = epochSecond;
      counts[slot] = 0;
    }
    counts[slot]++;
  }

  /** What was counted in the {@code seconds} (at most 300) up to and including {@code nowSecond}. */
  public synchronized long last(long nowSecond, int seconds) {
    long total = 0;
    for (int slot = 0; slot < SECONDS; slot++) {
      long age = nowSecond - stamps[slot];
      if (age >= 0 && age < seconds) {
        total += counts[slot];
      }
    }
    return total;
  }

  /** The last second anything was counted, or 0. */
  public synchronized long lastSecond() {
    long last = 0;
    for (int slot = 0; slot < SECONDS; slot++) {
      if (counts[slot] > 0) {
        last = Math.max(last, stamps[slot]);
      }
    }
    return last;
  }
}
