package io.tollgate.limiter;

import io.tollgate.redis.RedisConnection;
import java.time.Duration;

/** Redis limiters for the tests of this package, which look at the implementation itself. */
final class RedisLimiters {

  private RedisLimiters() {}

  /** A Redis limiter on {@code redis}, which it closes when it closes. */
  static RedisRateLimiter owning(RedisConnection redis, Duration reservationTtl) {
    return new RedisRateLimiter(redis, reservationTtl, redis);
  }

  /** A Redis limiter on {@code redis}, which the caller closes. */
  static RedisRateLimiter using(RedisConnection redis) {
    return new RedisRateLimiter(redis, RateLimiter.DEFAULT_RESERVATION_TTL, () -> { });
  }
}
