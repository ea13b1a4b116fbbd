package io.tollgate.gate.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Providers that asked us to come back later ({@code Retry-After} on a 429 or 503): not sent to
 * until then, whatever their breaker says.
 */
final class Cooldowns {

  private final Clock clock;
  private final Map<String, Instant> until = new ConcurrentHashMap<>();

  Cooldowns(Clock clock) {
    this.clock = clock;
  }

  void coolDown(String provider, Duration wait) {
    Instant end = clock.instant().plus(wait);
    until.merge(provider, end, (a, b) -> a.isAfter(b) ? a : b);
  }

  /** How long {@code provider} still cools down, if it does. */
  Optional<Duration> remaining(String provider) {
    Instant end = until.get(provider);
    if (end == null) {
      return Optional.empty();
    }
    Duration left = Duration.between(clock.instant(), end);
    if (left.isNegative() || left.isZero()) {
      until.remove(provider, end);
      return Optional.empty();
    }
    return Optional.of(left);
  }
}
