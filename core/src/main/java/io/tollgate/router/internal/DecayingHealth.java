package io.tollgate.router.internal;

import io.tollgate.router.HealthSnapshot;
import io.tollgate.router.ProviderHealth;
import io.tollgate.router.QuotaSource;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link ProviderHealth} with forward decay: an observation at time t is added with weight
 * 2^((t − landmark) / halfLife) and every sum is divided by 2^((now − landmark) / halfLife) when
 * read. So recording touches one counter and one bucket instead of decaying everything, and the
 * result is the same as halving every old weight each half-life. When the weights grow large the
 * landmark moves forward and the sums are scaled down once.
 */
public final class DecayingHealth implements ProviderHealth {

  /** Weights stay below 2^32, far from losing a fresh observation in a double's 53 bits. */
  private static final double RESCALE_AFTER_HALF_LIVES = 32;

  private final String provider;
  private final double halfLifeMillis;
  private final Clock clock;

  private final LatencyHistogram latencies = new LatencyHistogram();
  private final double[] quotaRatios = new double[QuotaSource.values().length];
  private final long[] quotaTimes = new long[QuotaSource.values().length];
  private final boolean[] quotaKnown = new boolean[QuotaSource.values().length];
  private long landmark;
  private long latest;
  private double successes;
  private double failures;

  public DecayingHealth(String provider, Duration halfLife, Clock clock) {
    this.provider = Objects.requireNonNull(provider, "provider");
    this.halfLifeMillis = halfLife.toMillis();
    this.clock = Objects.requireNonNull(clock, "clock");
    this.landmark = clock.millis();
    this.latest = landmark;
  }

  @Override
  public String provider() {
    return provider;
  }

  @Override
  public void recordSuccess(Duration latency) {
    long nanos = latency.toNanos();
    if (nanos < 0) {
      throw new IllegalArgumentException("latency must not be negative, was " + latency);
    }
    synchronized (this) {
      double weight = weightNow();
      successes += weight;
      latencies.add(nanos, weight);
    }
  }

  @Override
  public void recordFailure() {
    synchronized (this) {
      failures += weightNow();
    }
  }

  @Override
  public void recordQuota(QuotaSource source, double remainingRatio) {
    if (Double.isNaN(remainingRatio)) {
      throw new IllegalArgumentException("remaining ratio must be a number, was NaN");
    }
    double ratio = Math.max(0.0, Math.min(1.0, remainingRatio));
    synchronized (this) {
      int i = source.ordinal();
      quotaRatios[i] = ratio;
      quotaTimes[i] = now();
      quotaKnown[i] = true;
    }
  }

  @Override
  public synchronized HealthSnapshot snapshot() {
    long now = Math.max(clock.millis(), latest);
    double decay = halving(now - landmark);
    double s = successes * decay;
    double f = failures * decay;
    double rate = (s + PRIOR_SUCCESSES) / (s + f + PRIOR_SUCCESSES);
    Optional<Duration> p99 = latencies.isEmpty()
        ? Optional.empty()
        : Optional.of(Duration.ofNanos(latencies.quantileNanos(0.99)));
    double quota = 1.0;
    for (int i = 0; i < quotaRatios.length; i++) {
      if (quotaKnown[i]) {
        // A quota window refills: an old "nearly exhausted" says less and less.
        double shortfall = (1.0 - quotaRatios[i]) * halving(now - quotaTimes[i]);
        quota = Math.min(quota, 1.0 - shortfall);
      }
    }
    return new HealthSnapshot(provider, s, f, rate, p99, quota);
  }

  @Override
  public String toString() {
    return "ProviderHealth" + snapshot();
  }

  /** The weight of an observation made now; caller holds the lock. */
  private double weightNow() {
    long now = now();
    double halfLives = (now - landmark) / halfLifeMillis;
    if (halfLives > RESCALE_AFTER_HALF_LIVES) {
      double factor = Math.pow(2.0, -halfLives);
      successes *= factor;
      failures *= factor;
      latencies.scale(factor);
      landmark = now;
      return 1.0;
    }
    return Math.pow(2.0, halfLives);
  }

  /** The clock, never going back: a wall clock stepped backwards must not make old weights heavy. */
  private long now() {
    latest = Math.max(clock.millis(), latest);
    return latest;
  }

  private double halving(long elapsedMillis) {
    return Math.pow(2.0, -elapsedMillis / halfLifeMillis);
  }
}
