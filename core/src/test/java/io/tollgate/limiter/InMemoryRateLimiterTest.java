package io.tollgate.limiter;

/** The contract on the in-memory backend, with the system clock. */
class InMemoryRateLimiterTest extends RateLimiterContract {

  private final InMemoryRateLimiter limiter = InMemoryRateLimiter.create();

  @Override
  RateLimiter limiter() {
    return limiter;
  }
}
