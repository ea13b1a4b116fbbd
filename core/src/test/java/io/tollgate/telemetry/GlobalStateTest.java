package io.tollgate.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Both ways of asking whether the global instance is set: the API's own {@code isSet()} (1.62+)
 * and the field read on older APIs (what Spring Boot 3.5 and 4.0 apps run on), neither of which
 * may set it.
 */
class GlobalStateTest {

  @AfterEach
  void reset() {
    GlobalOpenTelemetry.resetForTest();
  }

  @Test
  void bothWaysSayNotSetWithoutSettingIt() throws Throwable {
    GlobalOpenTelemetry.resetForTest();
    MethodHandle field = GlobalState.fieldIsSet(GlobalOpenTelemetry.class);

    assertThat(field).isNotNull();
    assertThat((boolean) field.invokeExact()).isFalse();
    assertThat(GlobalState.isSet()).isFalse();
    assertThat(GlobalOpenTelemetry.isSet()).isFalse(); // asking did not set it
  }

  @Test
  void bothWaysSeeTheAppsInstanceOnceSet() throws Throwable {
    GlobalOpenTelemetry.resetForTest();
    GlobalOpenTelemetry.set(OpenTelemetry.noop());
    MethodHandle field = GlobalState.fieldIsSet(GlobalOpenTelemetry.class);

    assertThat((boolean) field.invokeExact()).isTrue();
    assertThat(GlobalState.isSet()).isTrue();
  }
}
