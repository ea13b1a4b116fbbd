package io.tollgate.config;

/** What happens to a call that a limit denies ({@code tollgate.on-limit}). */
public enum OnLimit {
  /** Answer at once with a synthetic 429 and its {@code Retry-After}. */
  REJECT,
  /** Wait until the limit has room, up to {@code max-wait}, then reject. */
  WAIT
}
