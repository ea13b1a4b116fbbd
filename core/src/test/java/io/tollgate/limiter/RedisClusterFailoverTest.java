package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;

/** A Cluster master killed under load: no exception reaches callers, decisions continue. */
class RedisClusterFailoverTest {

  private RedisCluster cluster;
  private ResilientRateLimiter limiter;

  @BeforeEach
  void start() {
    cluster = RedisCluster.start();
    RedisConnection redis = RedisConnection.cluster(cluster.seedAddresses())
        .timeout(Duration.ofMillis(100)).poolSize(16).build();
    limiter = new ResilientRateLimiter(RedisLimiters.owning(redis, Duration.ofMinutes(1)),
        ResilienceConfig.custom().onFailure(FailurePolicy.FAIL_OPEN).build());
  }

  @AfterEach
  void stop() {
    limiter.close();
    cluster.close();
  }

  @Test
  void decisionsContinueAfterAMasterIsKilledMidLoad() throws Exception {
    Subject subject = Subject.of("tenant", "failover");
    Limits limits = Limits.of(Limit.requests(1_000_000, Duration.ofDays(365)));
    HostAndPort master = cluster.masterForKey(subject.hashTag());
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong shared = new AtomicLong();
    AtomicLong degraded = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> callers = new ArrayList<>();
    try {
      for (int t = 0; t < 4; t++) {
        callers.add(pool.submit(() -> {
          while (running.get()) {
            Decision decision = limiter.reserve(subject, limits, 1, 0);
            (decision.degraded() ? degraded : shared).incrementAndGet();
          }
          return null;
        }));
      }
      Thread.sleep(500);
      cluster.killMaster(master);
      HostAndPort promoted = cluster.awaitPromotion(master);
      long sharedAtPromotion = shared.get();
      Thread.sleep(2_000);
      running.set(false);
      for (Future<?> caller : callers) {
        caller.get(); // rethrows anything that reached a caller
      }

      assertThat(promoted).isNotEqualTo(master);
      assertThat(cluster.masterForKey(subject.hashTag())).isEqualTo(promoted);
      assertThat(shared.get()).as("shared decisions after promotion").isGreaterThan(sharedAtPromotion);
      Decision after = limiter.reserve(subject, limits, 1, 0);
      assertThat(after.degraded()).isFalse();
      assertThat(after.allowed()).isTrue();
    } finally {
      running.set(false);
      pool.shutdownNow();
    }
  }
}
