package io.tollgate.router;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One provider's health at one moment, every figure already decayed to that moment.
 *
 * @param provider the provider's name
 * @param successes the decayed weight of successes (each counts 1 when new, ½ one half-life later)
 * @param failures the decayed weight of failures
 * @param successRate (successes + {@link ProviderHealth#PRIOR_SUCCESSES}) / (successes + failures +
 *     prior): 1.0 for a provider never observed
 * @param p99 the decayed 99th percentile latency of successes, as the upper bound of its
 *     histogram bucket (within 19%); empty when no success was ever recorded
 * @param quotaRatio the lower of the limiter's and the provider's remaining / limit, each drifting
 *     back to 1 as it ages (its shortfall halves every half-life, as windows refill); 1.0 when
 *     neither reported
 */
public record HealthSnapshot(
    String provider,
    double successes,
    double failures,
    double successRate,
    Optional<Duration> p99,
    double quotaRatio) {

  public HealthSnapshot {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(p99, "p99");
  }
}
