package io.tollgate.router;

import java.util.Objects;

/**
 * A provider's score among the providers it was compared with, and the figures behind it.
 *
 * @param health the decayed figures
 * @param latencyFactor (1 − w) + w × bestP99 / p99 with w the latency weight; 1 when the provider or
 *     every compared one has no latency yet
 * @param quotaFactor (1 − w) + w × quotaRatio with w the quota weight
 * @param score successRate × latencyFactor × quotaFactor, in [0, 1]
 */
public record HealthScore(HealthSnapshot health, double latencyFactor, double quotaFactor, double score) {

  public HealthScore {
    Objects.requireNonNull(health, "health");
  }

  public String provider() {
    return health.provider();
  }
}
