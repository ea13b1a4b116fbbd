package io.tollgate.limiter;

/** The answer of a reservation. */
public enum Outcome {
  /** Every limit had room; all were charged. */
  ALLOWED,
  /** Some limit lacks room now; nothing was charged. {@link Decision#retryAfter()} says when. */
  DENIED,
  /** The cost exceeds a limit's capacity: it can never be admitted, however long one waits. */
  NEVER_FITS
}
