package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The contract on one real redis-server. */
class RedisStandaloneRateLimiterTest extends RateLimiterContract {

  private static RedisServer server;
  private static RedisRateLimiter limiter;

  @BeforeAll
  static void start() {
    server = RedisServer.start();
    limiter = RedisLimiters.owning(RedisConnection.standalone(server.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(32).build(), Duration.ofMinutes(10));
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

  @Test
  void sendsTheReservesOfSeveralSubjectsInOnePipelineUnlessOneIsLeasedOrNeverFits() {
    Limits limits = Limits.of(Limit.tokens(1000, YEAR));
    Charge tenant = new Charge(freshSubject(), limits);
    Charge provider = new Charge(Subject.of("provider", "openai"), limits);
    Charge leased = new Charge(Subject.of("provider", "azure"),
        limits.withLeases(LeasePolicy.auto(Duration.ofMillis(200))));

    assertThat(limiter.pipelinesReserves(List.of(tenant, provider), 1, 400)).isTrue();
    assertThat(limiter.pipelinesReserves(List.of(tenant), 1, 400)).isFalse();
    assertThat(limiter.pipelinesReserves(List.of(tenant, leased), 1, 400)).isFalse();
    assertThat(limiter.pipelinesReserves(List.of(tenant, provider), 1, 1001)).isFalse();
  }
}
