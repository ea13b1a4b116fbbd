package io.tollgate.limiter;

/** How a limit spreads its capacity over time. Both are O(1) in time and memory per key. */
public enum Algorithm {
  /** Continuous refill at capacity per window; a burst may take the whole capacity at once. */
  TOKEN_BUCKET,
  /**
   * Count in fixed windows, weighting the previous window by how much of it still overlaps the
   * sliding one; matches providers that publish "per minute" windows.
   */
  SLIDING_WINDOW,
  /**
   * Count per calendar day or month in UTC, as providers bill; empty again when the next one starts.
   * Spend limits only ({@link Limit#spendPerDay}, {@link Limit#spendPerMonth}).
   */
  CALENDAR
}
