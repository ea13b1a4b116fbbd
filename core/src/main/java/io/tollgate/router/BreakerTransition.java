package io.tollgate.router;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A breaker changed state: the event telemetry and logs subscribe to through
 * {@link ProviderBreakers#onStateTransition}.
 *
 * @param provider the provider's configured name
 * @param from the state before
 * @param to the state after
 * @param reason why
 * @param at when, on the breakers' clock
 * @param openUntil until when the breaker refuses calls, when {@code to} is OPEN or HALF_OPEN
 */
public record BreakerTransition(String provider, BreakerState from, BreakerState to,
    TransitionReason reason, Instant at, Optional<Instant> openUntil) {

  public BreakerTransition {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(openUntil, "openUntil");
  }
}
