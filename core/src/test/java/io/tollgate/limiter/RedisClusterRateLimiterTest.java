package io.tollgate.limiter;

import io.tollgate.testkit.redis.RedisCluster;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The contract on a real 3-master, 3-replica Redis Cluster. */
class RedisClusterRateLimiterTest extends RateLimiterContract {

  private static RedisCluster cluster;
  private static RedisRateLimiter limiter;

  @BeforeAll
  static void start() {
    cluster = RedisCluster.start();
    limiter = RedisRateLimiter.owning(
        RedisClients.cluster(cluster.seeds(), Duration.ofSeconds(2), 32, null, null, false),
        Duration.ofMinutes(10));
  }

  @AfterAll
  static void stop() {
    limiter.close();
    cluster.close();
  }

  @Override
  RateLimiter limiter() {
    return limiter;
  }
}
