package io.tollgate.router;

import io.tollgate.config.BreakerConfig;
import io.tollgate.redis.RedisConnection;
import io.tollgate.redis.RedisScripts;
import io.tollgate.router.internal.BreakerSettings;
import io.tollgate.router.internal.DefaultProviderBreakers;
import io.tollgate.router.internal.RedisBreakerStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * The circuit breakers of every provider, one per provider name, all with one
 * {@link BreakerConfig}.
 *
 * <p><b>Shared through Redis.</b> Given a Redis connection, the instances of a fleet share each
 * breaker's open episode: when one instance opens a breaker, the others refuse calls to that
 * provider within about {@link #DEFAULT_REFRESH_INTERVAL} (well under a second) until the same
 * time; when the open time ends, one instance, elected by a short Redis lock, sends the probe, and
 * the others keep refusing until its outcome is published. A background thread exchanges the
 * state with Redis every {@code refresh-interval}; calls never wait for Redis.
 *
 * <p><b>Without Redis</b>, or while it is unreachable, each instance's breakers work on their own:
 * same rules, local probes. An unreachable Redis is logged once per episode and retried every
 * second; when it answers again, breakers opened meanwhile are shared.
 *
 * <p>Close it to stop the background thread; the Redis connection stays the caller's.
 */
public interface ProviderBreakers extends AutoCloseable {

  /** How often each instance reads the shared state of its breakers. */
  Duration DEFAULT_REFRESH_INTERVAL = Duration.ofMillis(250);
  /** The upper bound of {@link #switchOverDelay()}. */
  Duration DEFAULT_SWITCH_OVER_JITTER = Duration.ofMillis(250);
  /** A probe that reports nothing for this long counts as failed ({@link TransitionReason#PROBE_LOST}). */
  Duration DEFAULT_PROBE_TIMEOUT = Duration.ofMinutes(2);

  /** Breakers of this JVM only, on the system clock. */
  static ProviderBreakers local(BreakerConfig config) {
    return builder(config).build();
  }

  /**
   * Breakers shared through {@code redis} when present, local otherwise, on {@code clock}. Its
   * client is asked for on the breakers' own thread, at each exchange until it can be made:
   * building these never waits for Redis, and a Redis down at start-up is shared with once it
   * answers.
   */
  static ProviderBreakers create(BreakerConfig config, Optional<RedisConnection> redis, Clock clock) {
    Builder builder = builder(config).clock(clock);
    redis.ifPresent(builder::redis);
    return builder.build();
  }

  static Builder builder(BreakerConfig config) {
    return new Builder(config);
  }

  /** The breaker of {@code provider}, created closed on first use. */
  ProviderBreaker breaker(String provider);

  /** Calls {@code listener} after every state change of any breaker, on the thread that caused it. */
  ProviderBreakers onStateTransition(Consumer<? super BreakerTransition> listener);

  /**
   * A random delay, uniform in 0 to {@code switch-over-jitter} (250 ms by default), to wait before
   * a switch-over to a fallback that a breaker opened by the fleet forces: so that a fleet that
   * learns of the open breaker at once does not move onto the fallback at once.
   */
  Duration switchOverDelay();

  /** True while breaker state is shared: Redis is configured and answered the last exchange. */
  boolean isShared();

  /** Stops the exchange with Redis and lets go of probe locks held here. */
  @Override
  void close();

  /** Configures {@link ProviderBreakers}; every setter rejects a bad value at once. */
  final class Builder {
    private final BreakerConfig config;
    private RedisScripts redis;
    private Clock clock = Clock.systemUTC();
    private RandomGenerator random = new Random();
    private Duration switchOverJitter = DEFAULT_SWITCH_OVER_JITTER;
    private Duration refreshInterval = DEFAULT_REFRESH_INTERVAL;
    private Duration probeTimeout = DEFAULT_PROBE_TIMEOUT;

    private Builder(BreakerConfig config) {
      this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * Shares breaker state through {@code redis} (standalone or Cluster), used on the exchange
     * thread only; a call that fails, connecting included, counts as Redis unreachable. The caller
     * closes it.
     */
    public Builder redis(RedisConnection redis) {
      this.redis = Objects.requireNonNull(redis, "redis");
      return this;
    }

    /** The clock of failure windows and open times (tests pass a fake one). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The source of {@link #switchOverDelay()} (tests pass a seeded one). */
    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    public Builder switchOverJitter(Duration max) {
      if (max.isNegative()) {
        throw new IllegalArgumentException("switch-over-jitter must be >= 0, was " + max);
      }
      this.switchOverJitter = max;
      return this;
    }

    /** How often the shared state is read; the probe lock lives eight times as long. */
    public Builder refreshInterval(Duration interval) {
      if (interval.toMillis() < 1) {
        throw new IllegalArgumentException("refresh-interval must be at least 1ms, was " + interval);
      }
      this.refreshInterval = interval;
      return this;
    }

    public Builder probeTimeout(Duration timeout) {
      if (timeout.toMillis() < 1) {
        throw new IllegalArgumentException("probe-timeout must be at least 1ms, was " + timeout);
      }
      this.probeTimeout = timeout;
      return this;
    }

    public ProviderBreakers build() {
      BreakerSettings settings = new BreakerSettings(config, clock, random, switchOverJitter,
          refreshInterval, refreshInterval.multipliedBy(8), probeTimeout);
      Optional<RedisBreakerStore> shared = redis == null
          ? Optional.empty() : Optional.of(new RedisBreakerStore(redis, settings));
      return new DefaultProviderBreakers(settings, shared);
    }
  }
}
