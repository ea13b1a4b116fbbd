package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.LimiterHealth;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The limiter a configuration yields. */
class LimitersTest {

  private static final Limits LIMITS = Limits.of(Limit.requests(2, Duration.ofDays(1)));

  private static TollgateConfig config(String yaml) {
    return TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml(yaml);
  }

  @Test
  void withoutRedisItIsTheInMemoryLimiter() {
    try (RateLimiter limiter = Limiters.create(config("tollgate:\n  mode: enforce\n").redis())) {
      assertThat(limiter.getClass().getSimpleName()).isEqualTo("InMemoryRateLimiter");
    }
  }

  @Test
  void withARedisUrlDecisionsAreSharedThroughIt() {
    try (RedisServer server = RedisServer.start();
        RateLimiter first = Limiters.create(config(
            "tollgate:\n  redis:\n    url: " + server.uri() + "\n").redis());
        RateLimiter second = Limiters.create(config(
            "tollgate:\n  redis:\n    url: " + server.uri() + "\n").redis())) {
      Subject subject = Subject.of("tenant", "shared");

      first.reserve(subject, LIMITS, 1, 0);
      Decision fromSecond = second.reserve(subject, LIMITS, 1, 0);

      assertThat(first).isInstanceOf(LimiterHealth.class);
      assertThat(fromSecond.remainingRequests()).isZero();
      assertThat(fromSecond.degraded()).isFalse();
    }
  }

  @Test
  void anUnreachableClusterAtStartUpDegradesInsteadOfFailing() {
    String yaml = "tollgate:\n  redis:\n    cluster: [127.0.0.1:1, 127.0.0.1:2]\n"
        + "    on-failure: fail-open\n    local-share: 0.5\n";
    try (RateLimiter limiter = Limiters.create(config(yaml).redis())) {
      Subject subject = Subject.of("tenant", "cluster-down");

      Decision first = limiter.reserve(subject, LIMITS, 1, 0);
      Decision second = limiter.reserve(subject, LIMITS, 1, 0);

      assertThat(first.degraded()).isTrue();
      assertThat(first.allowed()).isTrue();
      // the local guard holds half of 2 requests: 1
      assertThat(second.allowed()).isFalse();
    }
  }
}
