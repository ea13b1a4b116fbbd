package io.tollgate.config;

/**
 * What Tollgate does with its decisions ({@code tollgate.mode}): the steps of a rollout are
 * {@link #SHADOW}, {@link #ADVISORY}, {@link #CANARY}, {@link #ENFORCE}.
 */
public enum Mode {
  /** Decide and act: a call over a limit is rejected, waited or rerouted. */
  ENFORCE,
  /** Decide and report (spans, metrics, the status page), never block: to watch what enforcing would do. */
  SHADOW,
  /**
   * As {@link #SHADOW}, and tell the clients of inbound requests: the filter's responses carry the
   * rate-limit headers enforcing would send, and {@code Tollgate-Advisory} on those it would refuse.
   */
  ADVISORY,
  /**
   * Enforce for a share of the tenants ({@code canary-percent}), the same ones on every instance
   * (a tenant is in or out by a hash of its id); shadow for the others.
   */
  CANARY,
  /** Do nothing: every call passes untouched. */
  OFF;

  /** Whether a call over a limit is held back (refused, waited or rerouted) in this mode. */
  public boolean blocks() {
    return this == ENFORCE;
  }
}
