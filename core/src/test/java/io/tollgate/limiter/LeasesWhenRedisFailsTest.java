package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Leases behind {@link ResilientRateLimiter} when Redis stops answering. */
class LeasesWhenRedisFailsTest {

  private RedisServer server;
  private ResilientRateLimiter limiter;

  @BeforeEach
  void start() {
    server = RedisServer.start();
    RedisConnection redis = RedisConnection.standalone(server.uri())
        .timeout(Duration.ofMillis(200)).poolSize(4).build();
    limiter = new ResilientRateLimiter(RedisLimiters.owning(redis, Duration.ofMinutes(1)),
        ResilienceConfig.custom().onFailure(FailurePolicy.FAIL_OPEN).build());
  }

  @AfterEach
  void stop() {
    limiter.close();
    server.close();
  }

  @Test
  void aLeaseInHandKeepsDecidingThenTheLocalPolicyTakesOver() {
    Subject subject = Subject.of("tenant", "outage");
    Limits limits = Limits.of(Limit.requests(100, Duration.ofDays(365)),
            Limit.tokens(100_000, Duration.ofDays(365)))
        .withLeases(LeasePolicy.ofCalls(10, Duration.ofMinutes(1)));
    assertThat(limiter.reserve(subject, limits, 1, 100).degraded()).isFalse();

    server.stop();

    for (int i = 0; i < 10; i++) {
      Decision fromLease = limiter.reserve(subject, limits, 1, 100);
      assertThat(fromLease.allowed()).isTrue();
      assertThat(fromLease.degraded()).isFalse();
      assertThat(fromLease.reservation().orElseThrow().leased()).isTrue();
    }
    Decision local = limiter.reserve(subject, limits, 1, 100);

    assertThat(local.allowed()).isTrue();
    assertThat(local.degraded()).isTrue();
    assertThat(local.reservation().orElseThrow().local()).isTrue();
  }
}
