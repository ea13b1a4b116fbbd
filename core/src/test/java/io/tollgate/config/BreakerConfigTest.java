package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The breaker section's max-open-for: how far failed probes may lengthen the open time. */
class BreakerConfigTest {

  @Test
  void readsMaxOpenForFromYaml() {
    BreakerConfig breaker = Loaders.yaml("""
        tollgate:
          breaker:
            open-for: 20s
            max-open-for: 10m
        """).breaker();

    assertThat(breaker.openFor()).isEqualTo(Duration.ofSeconds(20));
    assertThat(breaker.maxOpenFor()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void readsMaxOpenForFromProperties() {
    BreakerConfig breaker = Loaders.properties(Map.of("tollgate.breaker.max-open-for", "2m")).breaker();

    assertThat(breaker.maxOpenFor()).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void anEnvironmentVariableOverridesMaxOpenFor() {
    BreakerConfig breaker = Loaders.yaml("tollgate:\n  breaker:\n    max-open-for: 10m\n",
        Map.of("TOLLGATE_BREAKER_MAX_OPEN_FOR", "7m")).breaker();

    assertThat(breaker.maxOpenFor()).isEqualTo(Duration.ofMinutes(7));
  }

  @Test
  void maxOpenForMayEqualOpenFor() {
    BreakerConfig breaker = BreakerConfig.builder()
        .openFor(Duration.ofSeconds(30)).maxOpenFor(Duration.ofSeconds(30)).build();

    assertThat(breaker.maxOpenFor()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void theBuilderRejectsMaxOpenForBelowOpenForWithTheRelativeKey() {
    BreakerConfig.Builder builder = BreakerConfig.builder()
        .openFor(Duration.ofMinutes(1)).maxOpenFor(Duration.ofSeconds(59));

    assertThatThrownBy(builder::build)
        .isInstanceOf(ConfigException.class)
        .hasMessage("max-open-for must be >= open-for (1m), was 59s");
  }

  @Test
  void theBuilderRejectsANonPositiveMaxOpenForAtOnce() {
    assertThatThrownBy(() -> BreakerConfig.builder().maxOpenFor(Duration.ofMillis(-1)))
        .isInstanceOf(ConfigException.class)
        .hasMessage("max-open-for must be at least 1ms, was -1ms");
  }

  @Test
  void maxOpenForTakesPartInEqualityAndPrinting() {
    BreakerConfig tenMinutes = BreakerConfig.builder().maxOpenFor(Duration.ofMinutes(10)).build();

    assertThat(tenMinutes).isNotEqualTo(BreakerConfig.ofDefaults());
    assertThat(tenMinutes).isEqualTo(BreakerConfig.builder().maxOpenFor(Duration.ofMinutes(10)).build());
    assertThat(tenMinutes.hashCode())
        .isEqualTo(BreakerConfig.builder().maxOpenFor(Duration.ofMinutes(10)).build().hashCode());
    assertThat(tenMinutes).hasToString("{failures=3, window=10s, open-for=30s, max-open-for=10m}");
  }

  @Test
  void anExplicitDefaultEqualsTheImplicitOne() {
    assertThat(BreakerConfig.builder().maxOpenFor(Duration.ofMinutes(5)).build())
        .isEqualTo(BreakerConfig.ofDefaults());
  }
}
