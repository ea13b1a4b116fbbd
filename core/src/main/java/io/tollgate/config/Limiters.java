package io.tollgate.config;

import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.ResilienceConfig;
import io.tollgate.redis.RedisConnection;
import java.util.Optional;

/** The limiter a configuration asks for: in memory without {@code redis:}, else Redis with its policy. */
public final class Limiters {

  /** Closing waits this many Redis timeouts, at most, for settles still queued. */
  static final int DRAIN_TIMEOUTS = 5;

  private Limiters() {}

  /** A limiter with its own Redis connection, closed with it. */
  public static RateLimiter create(Optional<RedisConfig> redis) {
    if (redis.isEmpty()) {
      return RateLimiter.inMemory();
    }
    return resilient(redis.get(),
        RateLimiter.redisOwning(redis.get().newConnection(), redis.get().reservationTtl()));
  }

  /** A limiter on a connection the caller owns and closes. */
  public static RateLimiter create(Optional<RedisConfig> redis, RedisConnection connection) {
    if (redis.isEmpty()) {
      return RateLimiter.inMemory();
    }
    return resilient(redis.get(), RateLimiter.redis(connection, redis.get().reservationTtl()));
  }

  private static RateLimiter resilient(RedisConfig config, RateLimiter shared) {
    return RateLimiter.resilient(shared, ResilienceConfig.custom()
        .onFailure(config.onFailure())
        .localShare(config.localShare())
        .reservationTtl(config.reservationTtl())
        .drainOnClose(config.timeout().multipliedBy(DRAIN_TIMEOUTS))
        .build());
  }
}
