package io.tollgate.router;

/**
 * What went wrong with a call to a provider, as far as its circuit breaker is concerned. Every
 * kind counts the same towards opening the breaker; the kind is kept for telemetry. A 4xx other
 * than 429 is the caller's fault, not the provider's, and is not a failure.
 */
public enum FailureKind {
  /** The provider answered 429. */
  RATE_LIMITED,
  /** The provider answered 5xx (Anthropic's 529 included). */
  SERVER_ERROR,
  /** No answer, or no complete answer, within the call's time budget. */
  TIMEOUT,
  /** The connection could not be made or broke (refused, reset, TLS, DNS). */
  CONNECTION
}
