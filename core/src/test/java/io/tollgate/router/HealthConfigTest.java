package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.config.ConfigException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class HealthConfigTest {

  @Test
  void defaultsAreAOneMinuteHalfLifeAndAThresholdOfOneFifth() {
    HealthConfig config = HealthConfig.ofDefaults();

    assertThat(config.halfLife()).isEqualTo(Duration.ofSeconds(60));
    assertThat(config.threshold()).isEqualTo(0.2);
    assertThat(config.latencyWeight()).isEqualTo(0.5);
    assertThat(config.quotaWeight()).isEqualTo(1.0);
  }

  @Test
  void rejectsABadValueNamingItsKey() {
    assertThatThrownBy(() -> HealthConfig.builder().threshold(1.5))
        .isInstanceOf(ConfigException.class)
        .hasMessage("threshold must be between 0 and 1, was 1.5");
    assertThatThrownBy(() -> HealthConfig.builder().latencyWeight(Double.NaN))
        .hasMessage("latency-weight must be between 0 and 1, was NaN");
    assertThatThrownBy(() -> HealthConfig.builder().quotaWeight(-0.1))
        .hasMessage("quota-weight must be between 0 and 1, was -0.1");
    assertThatThrownBy(() -> HealthConfig.builder().halfLife(Duration.ZERO))
        .hasMessage("half-life must be at least 1ms, was PT0S");
  }
}
