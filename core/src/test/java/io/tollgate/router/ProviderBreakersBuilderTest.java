package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.config.BreakerConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the builder accepts, and the defaults it starts from. */
class ProviderBreakersBuilderTest {

  private final ProviderBreakers.Builder builder = ProviderBreakers.builder(BreakerConfig.ofDefaults());

  @Test
  void defaultsHoldTheDocumentedValues() {
    assertThat(ProviderBreakers.DEFAULT_REFRESH_INTERVAL).isEqualTo(Duration.ofMillis(250));
    assertThat(ProviderBreakers.DEFAULT_SWITCH_OVER_JITTER).isEqualTo(Duration.ofMillis(250));
    assertThat(ProviderBreakers.DEFAULT_PROBE_TIMEOUT).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void rejectsARefreshIntervalBelowOneMillisecond() {
    assertThatThrownBy(() -> builder.refreshInterval(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("refresh-interval must be at least 1ms, was PT0S");
  }

  @Test
  void rejectsAProbeTimeoutBelowOneMillisecond() {
    assertThatThrownBy(() -> builder.probeTimeout(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("probe-timeout must be at least 1ms, was PT-1S");
  }

  @Test
  void rejectsAnEmptyProviderName() {
    try (ProviderBreakers breakers = builder.build()) {
      assertThatThrownBy(() -> breakers.breaker(""))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("provider must be a configured provider's name, was \"\"");
    }
  }

  @Test
  void localBreakersAreNotShared() {
    try (ProviderBreakers breakers = ProviderBreakers.local(BreakerConfig.ofDefaults())) {
      assertThat(breakers.isShared()).isFalse();
      assertThat(breakers.breaker("openai").state()).isEqualTo(BreakerState.CLOSED);
    }
  }
}
