package io.tollgate.config;

import io.tollgate.llm.ProviderApi;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.FailurePolicy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What an absent key means. */
class DefaultsTest {

  @Test
  void anEmptyRootIsEveryDefault() {
    TollgateConfig config = Loaders.yaml("tollgate:\n");

    assertThat(config.mode()).isEqualTo(Mode.ENFORCE);
    assertThat(config.onLimit()).isEqualTo(OnLimit.REJECT);
    assertThat(config.maxWait()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.strict()).isFalse();
    assertThat(config.redis()).isEmpty();
    assertThat(config.providers()).isEmpty();
    assertThat(config.tenants()).isEmpty();
    assertThat(config.breaker().failures()).isEqualTo(3);
    assertThat(config.breaker().window()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.breaker().openFor()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.breaker().maxOpenFor()).isEqualTo(Duration.ofMinutes(5));
    assertThat(config.tokens().defaultMaxOutput()).isEqualTo(1024);
    assertThat(config).isEqualTo(TollgateConfig.ofDefaults());
  }

  @Test
  void noPropertyIsEveryDefault() {
    assertThat(Loaders.properties(Map.of())).isEqualTo(TollgateConfig.ofDefaults());
  }

  @Test
  void emptySectionsAreAbsent() {
    TollgateConfig config = Loaders.yaml("""
        tollgate:
          redis:
          providers: {}
          tenants:
          breaker:
          tokens: {}
        """);

    assertThat(config).isEqualTo(TollgateConfig.ofDefaults());
  }

  @Test
  void redisWithOnlyAUrlTakesEveryOtherDefault() {
    RedisConfig redis = Loaders.yaml("""
        tollgate:
          redis:
            url: redis://cache:6379
        """).redis().orElseThrow();

    assertThat(redis.timeout()).isEqualTo(Duration.ofMillis(100));
    assertThat(redis.onFailure()).isEqualTo(FailurePolicy.FAIL_OPEN);
    assertThat(redis.localShare()).isEqualTo(1.0);
    assertThat(redis.poolSize()).isEqualTo(32);
    assertThat(redis.reservationTtl()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void providerWithOnlyABaseUrlTakesEveryOtherDefault() {
    ProviderConfig provider = Loaders.yaml("""
        tollgate:
          providers:
            local:
              base-url: http://localhost:8080/v1
        """).provider("local").orElseThrow();

    assertThat(provider.api()).isEqualTo(ProviderApi.OPENAI);
    assertThat(provider.apiKey()).isEmpty();
    assertThat(provider.limits()).isEqualTo(LimitsConfig.none());
    assertThat(provider.limits().isEmpty()).isTrue();
    assertThat(provider.fallbacks()).isEmpty();
    assertThat(provider.modelMap()).isEmpty();
  }

  @Test
  void limitsWithoutAlgorithmUseTokenBucket() {
    LimitsConfig limits = LimitsConfig.builder().requestsPerSecond(5).build();

    assertThat(limits.algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(limits.toLimits().all().get(0).algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
  }

  @Test
  void maxOpenForDefaultsToFiveMinutes() {
    BreakerConfig breaker = Loaders.yaml("tollgate:\n  breaker:\n    open-for: 1m\n").breaker();

    assertThat(breaker.maxOpenFor()).isEqualTo(Duration.ofMinutes(5));
    assertThat(BreakerConfig.ofDefaults().maxOpenFor()).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void maxOpenForDefaultsToOpenForWhenThatIsLonger() {
    BreakerConfig breaker = Loaders.yaml("tollgate:\n  breaker:\n    open-for: 10m\n").breaker();

    assertThat(breaker.openFor()).isEqualTo(Duration.ofMinutes(10));
    assertThat(breaker.maxOpenFor()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void defaultConstantsHoldTheDocumentedValues() {
    assertThat(TollgateConfig.DEFAULT_MODE).isEqualTo(Mode.ENFORCE);
    assertThat(TollgateConfig.DEFAULT_ON_LIMIT).isEqualTo(OnLimit.REJECT);
    assertThat(TollgateConfig.DEFAULT_MAX_WAIT).isEqualTo(Duration.ofSeconds(2));
    assertThat(TollgateConfig.DEFAULT_STRICT).isFalse();
    assertThat(RedisConfig.DEFAULT_TIMEOUT).isEqualTo(Duration.ofMillis(100));
    assertThat(RedisConfig.DEFAULT_ON_FAILURE).isEqualTo(FailurePolicy.FAIL_OPEN);
    assertThat(RedisConfig.DEFAULT_LOCAL_SHARE).isEqualTo(1.0);
    assertThat(RedisConfig.DEFAULT_POOL_SIZE).isEqualTo(32);
    assertThat(RedisConfig.DEFAULT_RESERVATION_TTL).isEqualTo(Duration.ofMinutes(10));
    assertThat(ProviderConfig.DEFAULT_API).isEqualTo(ProviderApi.OPENAI);
    assertThat(LimitsConfig.DEFAULT_ALGORITHM).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(BreakerConfig.DEFAULT_FAILURES).isEqualTo(3);
    assertThat(BreakerConfig.DEFAULT_WINDOW).isEqualTo(Duration.ofSeconds(10));
    assertThat(BreakerConfig.DEFAULT_OPEN_FOR).isEqualTo(Duration.ofSeconds(30));
    assertThat(BreakerConfig.DEFAULT_MAX_OPEN_FOR).isEqualTo(Duration.ofMinutes(5));
    assertThat(TokensConfig.DEFAULT_DEFAULT_MAX_OUTPUT).isEqualTo(1024);
  }
}
