package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A limits section, and what the limiter gets from it. */
class LimitsConfigTest {

  @Test
  void everyKeyBecomesALimitOfItsDimensionAndWindow() {
    LimitsConfig limits = Loaders.yaml("""
        tollgate:
          providers:
            p:
              base-url: https://p.example
              limits:
                requests-per-second: 1
                requests-per-minute: 2
                requests-per-hour: 3
                requests-per-day: 4
                tokens-per-second: 5
                tokens-per-minute: 6
                tokens-per-hour: 7
                tokens-per-day: 8
                algorithm: sliding-window
        """).provider("p").orElseThrow().limits();

    Algorithm sliding = Algorithm.SLIDING_WINDOW;
    assertThat(limits.toLimits()).isEqualTo(Limits.of(
        Limit.of(Dimension.REQUESTS, 1, Duration.ofSeconds(1), sliding),
        Limit.of(Dimension.REQUESTS, 2, Duration.ofMinutes(1), sliding),
        Limit.of(Dimension.REQUESTS, 3, Duration.ofHours(1), sliding),
        Limit.of(Dimension.REQUESTS, 4, Duration.ofDays(1), sliding),
        Limit.of(Dimension.TOKENS, 5, Duration.ofSeconds(1), sliding),
        Limit.of(Dimension.TOKENS, 6, Duration.ofMinutes(1), sliding),
        Limit.of(Dimension.TOKENS, 7, Duration.ofHours(1), sliding),
        Limit.of(Dimension.TOKENS, 8, Duration.ofDays(1), sliding)));
    assertThat(limits.requestsPerSecond()).hasValue(1);
    assertThat(limits.requestsPerHour()).hasValue(3);
    assertThat(limits.requestsPerDay()).hasValue(4);
    assertThat(limits.tokensPerSecond()).hasValue(5);
    assertThat(limits.tokensPerHour()).hasValue(7);
  }

  @Test
  void anOverrideReplacesOnlyTheKeysItNames() {
    LimitsConfig base = LimitsConfig.builder().requestsPerMinute(60).tokensPerMinute(40_000).build();
    LimitsConfig override = LimitsConfig.builder().requestsPerMinute(600).tokensPerDay(9).build();

    assertThat(base.mergedWith(override)).isEqualTo(LimitsConfig.builder()
        .requestsPerMinute(600).tokensPerMinute(40_000).tokensPerDay(9).build());
  }

  @Test
  void anOverrideKeepsTheBaseAlgorithmUnlessItNamesOne() {
    LimitsConfig base = LimitsConfig.builder().requestsPerMinute(60).algorithm(Algorithm.SLIDING_WINDOW).build();

    assertThat(base.mergedWith(LimitsConfig.builder().requestsPerMinute(600).build()).algorithm())
        .isEqualTo(Algorithm.SLIDING_WINDOW);
    assertThat(base.mergedWith(LimitsConfig.builder().algorithm(Algorithm.TOKEN_BUCKET).build()).algorithm())
        .isEqualTo(Algorithm.TOKEN_BUCKET);
  }

  @Test
  void tenantOverridesMergeWithTheBase() {
    TenantsConfig tenants = Loaders.yaml("""
        tollgate:
          tenants:
            api-key-header: Authorization
            limits:
              requests-per-minute: 60
              tokens-per-minute: 40000
            overrides:
              premium:
                requests-per-minute: 600
              batch:
                tokens-per-minute: 1000000
                algorithm: sliding-window
        """).tenants().orElseThrow();

    assertThat(tenants.apiKeyHeader()).contains("Authorization");
    assertThat(tenants.header()).isEmpty();
    assertThat(tenants.limitsFor("premium").toLimits()).isEqualTo(Limits.of(
        Limit.requests(600, Duration.ofMinutes(1)), Limit.tokens(40_000, Duration.ofMinutes(1))));
    assertThat(tenants.limitsFor("batch").toLimits()).isEqualTo(Limits.of(
        Limit.of(Dimension.REQUESTS, 60, Duration.ofMinutes(1), Algorithm.SLIDING_WINDOW),
        Limit.of(Dimension.TOKENS, 1_000_000, Duration.ofMinutes(1), Algorithm.SLIDING_WINDOW)));
    assertThat(tenants.limitsFor("nobody")).isEqualTo(tenants.limits());
  }

  @Test
  void noLimitHasNothingToGiveTheLimiter() {
    assertThat(LimitsConfig.none().isEmpty()).isTrue();
    assertThat(LimitsConfig.builder().build()).isSameAs(LimitsConfig.none());
    assertThatThrownBy(() -> LimitsConfig.none().toLimits())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("no limit is configured; check isEmpty() first");
  }

  @Test
  void aBuilderNamesTheKeyRelativeToItself() {
    assertThatThrownBy(() -> LimitsConfig.builder().tokensPerMinute(-5))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tokens-per-minute must be > 0, was -5");
  }

  @Test
  void printsTheKeysAsWritten() {
    assertThat(LimitsConfig.builder().tokensPerDay(8).requestsPerSecond(1).algorithm(Algorithm.SLIDING_WINDOW)
        .build()).hasToString("{requests-per-second=1, tokens-per-day=8, algorithm=sliding-window}");
  }
}
