package io.tollgate.limiter;

import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The contract on one real redis-server. */
class RedisStandaloneRateLimiterTest extends RateLimiterContract {

  private static RedisServer server;
  private static RedisRateLimiter limiter;

  @BeforeAll
  static void start() {
    server = RedisServer.start();
    limiter = RedisRateLimiter.owning(
        RedisClients.standalone(server.uri(), Duration.ofSeconds(2), 32), Duration.ofMinutes(10));
  }

  @AfterAll
  static void stop() {
    limiter.close();
    server.close();
  }

  @Override
  RateLimiter limiter() {
    return limiter;
  }
}
