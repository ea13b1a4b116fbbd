package io.tollgate.router;

import io.tollgate.router.internal.DecayingHealth;
import java.time.Clock;
import java.time.Duration;

/**
 * What recent calls say about one provider: successes, failures, latency and remaining quota, each
 * observation weighing half as much every {@link HealthConfig#halfLife()}. Thread-safe; recording
 * is O(1) and holds a short lock. A {@link HealthBoard} turns these into scores and a ranking.
 */
public interface ProviderHealth {

  /**
   * Successes every provider starts with, and keeps: one failure does not write off a provider,
   * and one that gets no traffic (because it was skipped) drifts back to a success rate of 1 as
   * its failures fade, so it is tried again.
   */
  double PRIOR_SUCCESSES = 1.0;

  /** A provider's health with the given half-life, timed by {@code clock}. */
  static ProviderHealth of(String provider, HealthConfig config, Clock clock) {
    return new DecayingHealth(provider, config.halfLife(), clock);
  }

  String provider();

  /**
   * A call that the provider answered successfully, after {@code latency} (to the response's
   * headers, or to the first byte of a stream: what a slow provider makes the app wait for).
   *
   * @throws IllegalArgumentException when {@code latency} is negative
   */
  void recordSuccess(Duration latency);

  /**
   * A call that failed the way a breaker counts it: 429, 5xx, timeout, connection error. Its
   * latency is not recorded: a fast 429 must not make a provider look quick.
   */
  void recordFailure();

  /**
   * How much of the provider's quota {@code source} says is left, as remaining / limit. Each
   * source keeps its latest report; the lower of the two counts. A value outside [0, 1] is clamped
   * (a bucket in debt reports less than nothing).
   *
   * @throws IllegalArgumentException when {@code remainingRatio} is NaN
   */
  void recordQuota(QuotaSource source, double remainingRatio);

  /** The decayed figures as of now. */
  HealthSnapshot snapshot();
}
