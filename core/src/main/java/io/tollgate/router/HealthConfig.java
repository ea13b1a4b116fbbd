package io.tollgate.router;

import io.tollgate.config.ConfigException;
import java.time.Duration;
import java.util.Objects;

/**
 * How provider health is scored: how fast observations fade, how much latency and quota weigh,
 * and below which score a fallback is skipped. Keys are named as a future {@code tollgate.health}
 * section would name them.
 *
 * <p>score = successRate × (1 − latencyWeight + latencyWeight × bestP99 / p99)
 * × (1 − quotaWeight + quotaWeight × quotaRatio); see docs/routing.md.
 */
public final class HealthConfig {

  public static final Duration DEFAULT_HALF_LIFE = Duration.ofSeconds(60);
  public static final double DEFAULT_THRESHOLD = 0.2;
  /** Latency alone can at most halve a score: a slow but working fallback still beats none. */
  public static final double DEFAULT_LATENCY_WEIGHT = 0.5;
  /** An exhausted quota alone brings a score to zero: the provider would only answer 429. */
  public static final double DEFAULT_QUOTA_WEIGHT = 1.0;

  private static final HealthConfig DEFAULTS = new Builder().build();

  private final Duration halfLife;
  private final double threshold;
  private final double latencyWeight;
  private final double quotaWeight;

  private HealthConfig(Builder builder) {
    this.halfLife = builder.halfLife;
    this.threshold = builder.threshold;
    this.latencyWeight = builder.latencyWeight;
    this.quotaWeight = builder.quotaWeight;
  }

  /** Half-life 60s, threshold 0.2, latency weight 0.5, quota weight 1.0. */
  public static HealthConfig ofDefaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code half-life}: the age at which an observation counts half; default 60s. */
  public Duration halfLife() {
    return halfLife;
  }

  /** {@code threshold}: a provider scoring below it is skipped; 0 skips none; default 0.2. */
  public double threshold() {
    return threshold;
  }

  /** {@code latency-weight}: 0 ignores latency, 1 scores by the p99 ratio alone; default 0.5. */
  public double latencyWeight() {
    return latencyWeight;
  }

  /** {@code quota-weight}: 0 ignores quota, 1 scores by the remaining ratio alone; default 1.0. */
  public double quotaWeight() {
    return quotaWeight;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HealthConfig other
        && halfLife.equals(other.halfLife)
        && threshold == other.threshold
        && latencyWeight == other.latencyWeight
        && quotaWeight == other.quotaWeight;
  }

  @Override
  public int hashCode() {
    return Objects.hash(halfLife, threshold, latencyWeight, quotaWeight);
  }

  @Override
  public String toString() {
    return "{half-life=" + halfLife + ", threshold=" + threshold
        + ", latency-weight=" + latencyWeight + ", quota-weight=" + quotaWeight + "}";
  }

  /** Collects the settings; each setter rejects a bad value at once. */
  public static final class Builder {
    private Duration halfLife = DEFAULT_HALF_LIFE;
    private double threshold = DEFAULT_THRESHOLD;
    private double latencyWeight = DEFAULT_LATENCY_WEIGHT;
    private double quotaWeight = DEFAULT_QUOTA_WEIGHT;

    private Builder() {}

    public Builder halfLife(Duration halfLife) {
      Objects.requireNonNull(halfLife, "halfLife");
      if (halfLife.toMillis() < 1) {
        throw new ConfigException("half-life", "must be at least 1ms, was " + halfLife);
      }
      this.halfLife = halfLife;
      return this;
    }

    public Builder threshold(double threshold) {
      this.threshold = unit("threshold", threshold);
      return this;
    }

    public Builder latencyWeight(double latencyWeight) {
      this.latencyWeight = unit("latency-weight", latencyWeight);
      return this;
    }

    public Builder quotaWeight(double quotaWeight) {
      this.quotaWeight = unit("quota-weight", quotaWeight);
      return this;
    }

    public HealthConfig build() {
      return new HealthConfig(this);
    }

    private static double unit(String key, double value) {
      if (!(value >= 0.0 && value <= 1.0)) {
        throw new ConfigException(key, "must be between 0 and 1, was " + value);
      }
      return value;
    }
  }
}
