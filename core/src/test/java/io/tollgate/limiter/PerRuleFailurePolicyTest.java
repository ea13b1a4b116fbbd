package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.LimitsConfig;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code on-failure} per limit set: while Redis cannot answer, a set that says fail-closed is
 * refused and one that says fail-open is decided locally, whatever {@code redis.on-failure} says.
 */
class PerRuleFailurePolicyTest {

  private static final Duration YEAR = Duration.ofDays(365);

  private RedisServer server;
  private RedisRateLimiter redis;
  private RateLimiter limiter;

  @BeforeEach
  void start() {
    server = RedisServer.start();
    redis = RedisLimiters.owning(RedisConnection.standalone(server.uri())
        .timeout(Duration.ofMillis(100)).poolSize(4).build(), Duration.ofMinutes(1));
  }

  @AfterEach
  void stop() throws Exception {
    if (limiter != null) {
      limiter.close();
    }
    server.close();
  }

  private RateLimiter resilient(FailurePolicy global) {
    limiter = RateLimiter.resilient(redis, ResilienceConfig.custom().onFailure(global).build());
    return limiter;
  }

  @Test
  void aTenantsRateLimitFailsOpenWhileTheAccountsBudgetFailsClosed() {
    RateLimiter limiter = resilient(FailurePolicy.FAIL_OPEN);
    Limits tenantRate = LimitsConfig.parse("tollgate.tenants.limits",
        Map.of("requests-per-day", "100")).toLimits();
    Limits budget = LimitsConfig.parse("tollgate.providers.openai.limits",
        Map.of("usd-per-day", "10", "on-failure", "fail-closed")).toLimits();
    Subject tenant = Subject.of("tenant", "acme");
    Subject account = Subject.of("provider", "openai");
    server.stop();

    Decision rate = limiter.reserve(tenant, tenantRate, 1, 0);
    Decision spend = limiter.reserve(account, budget, 1, 0, 1_000);
    JointDecision both = limiter.reserveAll(
        List.of(new Charge(account, budget), new Charge(tenant, tenantRate)), 1, 0, 1_000);

    assertThat(rate.outcome()).isEqualTo(Outcome.ALLOWED);
    assertThat(rate.degraded()).isTrue();
    assertThat(spend.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(spend.degraded()).isTrue();
    assertThat(both.allowed()).isFalse();
  }

  @Test
  void aSetThatFailsOpenIsDecidedLocallyUnderAGlobalFailClosed() {
    RateLimiter limiter = resilient(FailurePolicy.FAIL_CLOSED);
    Limits open = Limits.of(Limit.requests(2, YEAR)).withOnFailure(FailurePolicy.FAIL_OPEN);
    Limits closed = Limits.of(Limit.requests(2, YEAR));
    server.stop();

    assertThat(limiter.reserve(Subject.of("tenant", "a"), open, 1, 0).outcome())
        .isEqualTo(Outcome.ALLOWED);
    assertThat(limiter.reserve(Subject.of("tenant", "a"), open, 1, 0).outcome())
        .isEqualTo(Outcome.ALLOWED);
    // decided locally, still within its limit
    assertThat(limiter.reserve(Subject.of("tenant", "a"), open, 1, 0).outcome())
        .isEqualTo(Outcome.DENIED);
    assertThat(limiter.reserve(Subject.of("tenant", "b"), closed, 1, 0).outcome())
        .isEqualTo(Outcome.DENIED);
  }

  @Test
  void joinedSetsTakeTheStricterPolicyAndSharesKeepIt() {
    Limits open = Limits.of(Limit.requests(2, YEAR)).withOnFailure(FailurePolicy.FAIL_OPEN);
    Limits closed = Limits.of(Limit.tokens(2, YEAR)).withOnFailure(FailurePolicy.FAIL_CLOSED);

    assertThat(open.and(closed).onFailure()).hasValue(FailurePolicy.FAIL_CLOSED);
    assertThat(open.and(Limits.of(Limit.tokens(5, YEAR))).onFailure()).hasValue(FailurePolicy.FAIL_OPEN);
    assertThat(closed.sharing(0.5).onFailure()).hasValue(FailurePolicy.FAIL_CLOSED);
    assertThat(closed.inGroup("m1").onFailure()).hasValue(FailurePolicy.FAIL_CLOSED);
    assertThat(Limits.of(Limit.requests(2, YEAR)).onFailure()).isEmpty();
  }
}
