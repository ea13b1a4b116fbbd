package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisCluster;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The contract on a real 3-master, 3-replica Redis Cluster. */
class RedisClusterRateLimiterTest extends RateLimiterContract {

  private static RedisCluster cluster;
  private static RedisRateLimiter limiter;

  @BeforeAll
  static void start() {
    cluster = RedisCluster.start();
    limiter = RedisLimiters.owning(RedisConnection.cluster(cluster.seedAddresses())
        .timeout(Duration.ofSeconds(2)).poolSize(32).build(), Duration.ofMinutes(10));
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

  @Test
  void reservesOnSeveralSubjectsInTurnSinceTheirSlotsDiffer() {
    Limits limits = Limits.of(Limit.tokens(1000, YEAR));
    List<Charge> charges = List.of(new Charge(freshSubject(), limits),
        new Charge(Subject.of("provider", "openai"), limits));

    assertThat(limiter.pipelinesReserves(charges, 1, 400)).isFalse();
  }
}
