package io.tollgate.config;

import io.tollgate.limiter.InMemoryRateLimiter;
import io.tollgate.limiter.MicroClock;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.RedisRateLimiter;
import io.tollgate.limiter.ResilientRateLimiter;
import java.util.Optional;

/** The limiter a configuration asks for: in memory without {@code redis:}, else Redis with its policy. */
public final class Limiters {

  /** Closing waits this many Redis timeouts, at most, for settles still queued. */
  static final int DRAIN_TIMEOUTS = 5;

  private Limiters() {}

  /** A limiter with its own Redis connection, closed with it. */
  public static RateLimiter create(Optional<RedisConfig> redis) {
    if (redis.isEmpty()) {
      return inMemory();
    }
    RedisConnection connection = RedisConnection.of(redis.get());
    return resilient(redis.get(), RedisRateLimiter.connecting(
        connection::client, redis.get().reservationTtl(), connection));
  }

  /** A limiter on a connection the caller owns and closes. */
  public static RateLimiter create(Optional<RedisConfig> redis, RedisConnection connection) {
    if (redis.isEmpty()) {
      return inMemory();
    }
    return resilient(redis.get(), RedisRateLimiter.connecting(
        connection::client, redis.get().reservationTtl(), () -> { }));
  }

  private static RateLimiter inMemory() {
    return InMemoryRateLimiter.create(MicroClock.system(), InMemoryRateLimiter.DEFAULT_RESERVATION_TTL);
  }

  private static RateLimiter resilient(RedisConfig config, RedisRateLimiter shared) {
    return ResilientRateLimiter.builder(shared)
        .onFailure(config.onFailure())
        .localShare(config.localShare())
        .reservationTtl(config.reservationTtl())
        .drainOnClose(config.timeout().multipliedBy(DRAIN_TIMEOUTS))
        .build();
  }
}
