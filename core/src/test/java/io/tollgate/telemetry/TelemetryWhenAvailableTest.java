package io.tollgate.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A telemetry that follows an instance set later (the app's global one, or what the agent finds in
 * the app): nothing is recorded until it is there, it is asked for on each call until then, and
 * never again once found.
 */
class TelemetryWhenAvailableTest {

  @AfterEach
  void reset() {
    GlobalOpenTelemetry.resetForTest();
  }

  @Test
  void theSourceIsAskedUntilItNamesAnInstanceThenNeverAgain() {
    AtomicReference<OpenTelemetry> available = new AtomicReference<>();
    AtomicInteger asked = new AtomicInteger();
    Telemetry telemetry = Telemetry.whenAvailable(() -> {
      asked.incrementAndGet();
      return available.get();
    }, ContextLink.LOCAL);

    assertThat(telemetry.instruments()).isNull();
    assertThat(telemetry.instruments()).isNull();
    assertThat(asked).hasValue(2);

    try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().build()) {
      available.set(sdk);
      Instruments instruments = telemetry.instruments();
      assertThat(instruments).isNotNull();
      assertThat(telemetry.instruments()).isSameAs(instruments);
      assertThat(asked).hasValue(3);
    }
  }

  @Test
  void globalFollowsAnInstanceTheAppRegistersAfterwardsWithoutSettingOne() {
    GlobalOpenTelemetry.resetForTest();
    Telemetry telemetry = Telemetry.global();

    assertThat(telemetry.instruments()).isNull();
    assertThat(GlobalOpenTelemetry.isSet()).isFalse(); // asking did not set it

    try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().buildAndRegisterGlobal()) {
      assertThat(telemetry.instruments()).isNotNull();
    }
  }
}
