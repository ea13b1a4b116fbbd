package io.tollgate.router;

/** Where a provider's circuit breaker stands. */
public enum BreakerState {
  /** Calls go through; consecutive failures are counted. */
  CLOSED,
  /** Calls are refused until {@link ProviderBreaker#openUntil()}. */
  OPEN,
  /** The open time is over: one probe call may go (one for the whole fleet when it shares state). */
  HALF_OPEN
}
