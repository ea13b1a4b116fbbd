package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TelemetryConfigTest {

  @Test
  void exportsNothingOfItsOwnByDefault() {
    assertThat(Loaders.yaml("tollgate: {}").telemetry().export()).isEqualTo(TelemetryExport.NONE);
  }

  @Test
  void otlpAsksTheAgentToStartTheSdk() {
    assertThat(Loaders.yaml("tollgate:\n  telemetry:\n    export: otlp\n").telemetry())
        .isEqualTo(TelemetryConfig.of(TelemetryExport.OTLP));
  }

  @Test
  void theEnvironmentCanAskForIt() {
    assertThat(Loaders.yaml("tollgate: {}", Map.of("TOLLGATE_TELEMETRY_EXPORT", "otlp"))
        .telemetry().export()).isEqualTo(TelemetryExport.OTLP);
  }

  @Test
  void anUnknownExporterIsRefusedByItsFullKey() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  telemetry:\n    export: zipkin\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.telemetry.export must be one of none, otlp, was zipkin");
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  telemetry:\n    exporter: otlp\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("tollgate.telemetry.exporter is not a known key; did you mean export?");
  }
}
