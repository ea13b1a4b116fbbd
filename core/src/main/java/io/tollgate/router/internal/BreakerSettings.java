package io.tollgate.router.internal;

import io.github.resilience4j.core.IntervalFunction;
import io.tollgate.config.BreakerConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.random.RandomGenerator;

/** Everything the breakers of one {@code ProviderBreakers} run with; built by its builder. */
public final class BreakerSettings {

  /** Failed probes past this many stop doubling anything: max-open-for was reached long before. */
  private static final int MAX_DOUBLINGS = 62;

  private final BreakerConfig config;
  private final Clock clock;
  private final RandomGenerator random;
  private final Duration switchOverJitter;
  private final Duration refreshInterval;
  private final Duration probeLockTtl;
  private final Duration probeTimeout;
  private final IntervalFunction openTimes;

  public BreakerSettings(BreakerConfig config, Clock clock, RandomGenerator random,
      Duration switchOverJitter, Duration refreshInterval, Duration probeLockTtl,
      Duration probeTimeout) {
    this.config = config;
    this.clock = clock;
    this.random = random;
    this.switchOverJitter = switchOverJitter;
    this.refreshInterval = refreshInterval;
    this.probeLockTtl = probeLockTtl;
    this.probeTimeout = probeTimeout;
    this.openTimes = IntervalFunction.ofExponentialBackoff(config.openFor(), 2.0, config.maxOpenFor());
  }

  /**
   * How long attempt {@code attempt} keeps a breaker open: open-for for the first (opened by
   * failures), doubled by each failed probe since, capped at max-open-for.
   */
  public Duration openTime(int attempt) {
    return Duration.ofMillis(openTimes.apply(Math.min(attempt, MAX_DOUBLINGS)));
  }

  public BreakerConfig config() {
    return config;
  }

  public Clock clock() {
    return clock;
  }

  public RandomGenerator random() {
    return random;
  }

  public Duration switchOverJitter() {
    return switchOverJitter;
  }

  public Duration refreshInterval() {
    return refreshInterval;
  }

  /** How long an elected prober holds the fleet's probe without renewing it. */
  public Duration probeLockTtl() {
    return probeLockTtl;
  }

  public Duration probeTimeout() {
    return probeTimeout;
  }
}
