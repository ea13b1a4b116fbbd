package io.tollgate.limiter;

import java.time.Duration;

/**
 * Whether a shared limiter decides without Redis, for health checks and metrics: the limiter
 * {@link RateLimiter#resilient} makes is one.
 */
public interface LimiterHealth {

  /** True while decisions are made without Redis. */
  boolean isDegraded();

  /**
   * How long decisions have been made without Redis since the limiter was built, the current
   * episode included.
   */
  Duration degradedTime();

  /**
   * How many calls found every pooled connection busy for {@code redis.timeout}: each was decided
   * by the failure policy, and none counts towards the breaker that marks Redis unreachable
   * ({@code redis.pool-size} is too small for the calls in flight).
   */
  long poolExhaustions();
}
