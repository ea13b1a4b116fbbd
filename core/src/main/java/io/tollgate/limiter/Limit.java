package io.tollgate.limiter;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One limit: at most {@code capacity} requests or tokens per {@code window}.
 *
 * <p>The limiter works in integer ticks: a tick is one microsecond unless capacity × window in
 * microseconds would leave the range where every step stays exact (2^50), then the smallest
 * power of ten that fits (1 000 000 000 tokens per day refill in 100 ms steps).
 */
public final class Limit {

  /** Largest capacity × window-in-ticks the scripts accept; 8× headroom below 2^53 for debt. */
  static final long MAX_SCALED = 1L << 50;

  /** A group names part of a Redis hash field: a digest, never text from outside. */
  private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9_~-]{1,24}");

  private final Dimension dimension;
  private final long capacity;
  private final Duration window;
  private final Algorithm algorithm;
  private final long tickMicros;
  private final long windowTicks;
  /** Empty, or the group this limit counts for beside others of the same shape (a model's). */
  private final String group;
  /** Units a reserve must leave unused: kept for calls of a higher priority class. */
  private final long keep;

  private Limit(Dimension dimension, long capacity, Duration window, Algorithm algorithm) {
    this(dimension, capacity, window, algorithm, "", 0);
  }

  private Limit(Dimension dimension, long capacity, Duration window, Algorithm algorithm,
      String group, long keep) {
    this.dimension = Objects.requireNonNull(dimension, "dimension");
    this.group = Objects.requireNonNull(group, "group");
    if (!group.isEmpty() && !GROUP.matcher(group).matches()) {
      throw new IllegalArgumentException("group must match " + GROUP + ", was " + group);
    }
    this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
    this.window = Objects.requireNonNull(window, "window");
    if (capacity <= 0) {
      throw new IllegalArgumentException(
          dimension.label() + " per " + window + " must be > 0, was " + capacity);
    }
    if ((algorithm == Algorithm.CALENDAR) != (dimension == Dimension.SPEND)) {
      throw new IllegalArgumentException("spend is counted per calendar day or month, and only spend is");
    }
    if (algorithm == Algorithm.CALENDAR && !window.equals(Duration.ofDays(1)) && !window.equals(MONTH)) {
      throw new IllegalArgumentException("a calendar limit is per day or per month, was " + window);
    }
    if (window.isNegative() || window.isZero() || window.compareTo(Duration.ofDays(366)) > 0) {
      throw new IllegalArgumentException("window must be between 1 µs and 366 days, was " + window);
    }
    long windowMicros = window.toNanos() / 1000;
    if (windowMicros <= 0 || window.toNanos() % 1000 != 0) {
      throw new IllegalArgumentException("window must be a whole number of µs, was " + window);
    }
    long tick = 1;
    if (algorithm == Algorithm.CALENDAR) {
      // counted in whole units, with no refill: only the capacity has to stay exact
      if (capacity >= MAX_SCALED) {
        throw new IllegalArgumentException(dimension.label() + " per " + window
            + " is too large to count exactly, was " + capacity);
      }
      tick = windowMicros;
    }
    while (windowMicros % (tick * 10) == 0 && exceeds(capacity, windowMicros / tick)) {
      tick *= 10;
    }
    if (exceeds(capacity, windowMicros / tick)) {
      throw new IllegalArgumentException(dimension.label() + " per " + window
          + " is too large to count exactly, was " + capacity);
    }
    this.capacity = capacity;
    this.tickMicros = tick;
    this.windowTicks = windowMicros / tick;
    if (keep < 0 || keep > capacity) {
      throw new IllegalArgumentException("keep must be between 0 and the capacity " + capacity
          + ", was " + keep);
    }
    this.keep = keep;
  }

  private static boolean exceeds(long capacity, long windowTicks) {
    return Math.multiplyHigh(capacity, windowTicks) != 0 || capacity * windowTicks >= MAX_SCALED;
  }

  public static Limit of(Dimension dimension, long capacity, Duration window, Algorithm algorithm) {
    return new Limit(dimension, capacity, window, algorithm);
  }

  /** A token-bucket limit on calls. */
  public static Limit requests(long capacity, Duration window) {
    return new Limit(Dimension.REQUESTS, capacity, window, Algorithm.TOKEN_BUCKET);
  }

  /** The window of a calendar month ({@link #spendPerMonth}): no month is longer. */
  static final Duration MONTH = Duration.ofDays(31);

  /** At most {@code microUsd} spent per calendar day, UTC. */
  public static Limit spendPerDay(long microUsd) {
    return new Limit(Dimension.SPEND, microUsd, Duration.ofDays(1), Algorithm.CALENDAR);
  }

  /** At most {@code microUsd} spent per calendar month, UTC. */
  public static Limit spendPerMonth(long microUsd) {
    return new Limit(Dimension.SPEND, microUsd, MONTH, Algorithm.CALENDAR);
  }

  /** True for a limit per calendar month ({@link #spendPerMonth}); false for every other. */
  public boolean monthly() {
    return algorithm == Algorithm.CALENDAR && window.equals(MONTH);
  }

  /** A token-bucket limit on LLM tokens. */
  public static Limit tokens(long capacity, Duration window) {
    return new Limit(Dimension.TOKENS, capacity, window, Algorithm.TOKEN_BUCKET);
  }

  public Dimension dimension() {
    return dimension;
  }

  public long capacity() {
    return capacity;
  }

  public Duration window() {
    return window;
  }

  public Algorithm algorithm() {
    return algorithm;
  }

  /** Length of one step of the limiter's clock for this limit, in µs. */
  public long tickMicros() {
    return tickMicros;
  }

  /** The window in ticks. */
  public long windowTicks() {
    return windowTicks;
  }

  /** This limit with its capacity multiplied by {@code share} (at least 1): a JVM's local part. */
  public Limit scaled(double share) {
    long scaled = Math.max(1, (long) Math.floor(capacity * share));
    return new Limit(dimension, scaled, window, algorithm, group,
        Math.min(scaled, (long) Math.ceil(keep * share)));
  }

  /**
   * This limit as a priority class allowed {@code share} of it sees it: a reserve is admitted only
   * while it leaves the rest ({@link #keep()}) unused, for the classes allowed more. The state is
   * the same limit's: every class draws on one count.
   *
   * @param share between 0 (exclusive) and 1: 1 may use all of it
   */
  public Limit sharing(double share) {
    if (!(share > 0 && share <= 1)) {
      throw new IllegalArgumentException("a share is > 0 and at most 1, was " + share);
    }
    long usable = (long) Math.floor(capacity * share);
    return new Limit(dimension, capacity, window, algorithm, group, capacity - usable);
  }

  /** Units a reserve must leave unused ({@link #sharing}); 0 for a call that may use it all. */
  public long keep() {
    return keep;
  }

  /**
   * This limit, counted apart from limits of the same shape in other groups of one subject: a
   * provider account's limits and each of its models' share one subject, each model its own group.
   *
   * @param group letters, digits, {@code _ ~ -}, at most 24 characters (a digest of the model)
   */
  public Limit inGroup(String group) {
    return new Limit(dimension, capacity, window, algorithm, group, keep);
  }

  /** The group of {@link #inGroup}; empty for a subject's own limits. */
  public String group() {
    return group;
  }

  /**
   * The name of this limit's state in the subject's hash; a changed capacity, window or algorithm
   * of a rate limit starts a fresh (full) state rather than misreading the old one. A calendar
   * budget's state is what was spent this period whatever the budget: a budget changed mid-period
   * keeps what was already spent.
   */
  public String stateField() {
    String name = (group.isEmpty() ? "" : group + "|")
        + (dimension == Dimension.REQUESTS ? "r" : dimension == Dimension.TOKENS ? "t" : "u")
        + (algorithm == Algorithm.TOKEN_BUCKET ? "b" : algorithm == Algorithm.SLIDING_WINDOW ? "w" : "c")
        + windowTicks * tickMicros;
    return algorithm == Algorithm.CALENDAR ? name : name + ":" + capacity;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Limit other
        && dimension == other.dimension
        && capacity == other.capacity
        && window.equals(other.window)
        && algorithm == other.algorithm
        && group.equals(other.group)
        && keep == other.keep;
  }

  @Override
  public int hashCode() {
    return Objects.hash(dimension, capacity, window, algorithm, group, keep);
  }

  @Override
  public String toString() {
    return (group.isEmpty() ? "" : group + ":") + dimension.label() + "-per-" + window + "=" + capacity
        + (algorithm == Algorithm.SLIDING_WINDOW ? " (sliding window)" : "")
        + (algorithm == Algorithm.CALENDAR ? (monthly() ? " (calendar month)" : " (calendar day)") : "")
        + (keep > 0 ? " keeping " + keep : "");
  }
}
