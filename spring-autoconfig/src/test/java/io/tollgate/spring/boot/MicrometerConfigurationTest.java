package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.tollgate.gate.Gate;
import io.tollgate.spring.boot.metrics.MicrometerMetrics;
import io.tollgate.telemetry.MetricsRecorder;
import io.tollgate.telemetry.TelemetryNames;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Which of the two a measurement goes to: Boot's {@link MeterRegistry} when the app has one, and
 * then never the app's OpenTelemetry meter too; OpenTelemetry with
 * {@code tollgate.telemetry.micrometer.enabled=false} or without a registry. Read on the breaker
 * state gauge, which the gate reports from the moment it is built.
 */
class MicrometerConfigurationTest {

  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
      .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
      .build();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(TollgateAutoConfiguration.class, TollgateMetricsAutoConfiguration.class))
      .withBean(OpenTelemetry.class, () -> sdk)
      .withPropertyValues("tollgate.providers.openai.base-url=http://127.0.0.1:9/v1",
          "tollgate.providers.openai.limits.requests-per-minute=600");

  @AfterEach
  void close() {
    sdk.close();
  }

  @Test
  void withAMeterRegistryTheMetricsAreMetersAndTheOpenTelemetryMeterGetsNone() {
    runner.withBean(MeterRegistry.class, () -> registry).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).hasSingleBean(MicrometerMetrics.class);
      context.getBean(Gate.class);

      assertThat(registry.get(TelemetryNames.BREAKER_STATE_METRIC).tag("tollgate.provider", "openai").gauge().value())
          .isEqualTo(0.0);
      assertThat(reader.collectAllMetrics()).isEmpty();
    });
  }

  @Test
  void switchedOffTheMetricsGoToOpenTelemetryAndTheRegistryGetsNone() {
    runner.withBean(MeterRegistry.class, () -> registry)
        .withPropertyValues("tollgate.telemetry.micrometer.enabled=false").run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(MetricsRecorder.class);
          context.getBean(Gate.class);

          assertThat(registry.getMeters()).isEmpty();
          assertThat(breakerStates()).singleElement().satisfies(metric ->
              assertThat(metric.getLongGaugeData().getPoints()).singleElement().satisfies(point -> {
                assertThat(point.getValue()).isZero();
                assertThat(point.getAttributes().get(AttributeKey.stringKey("tollgate.provider"))).isEqualTo("openai");
              }));
        });
  }

  @Test
  void withoutAMeterRegistryTheMetricsGoToOpenTelemetry() {
    runner.run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).doesNotHaveBean(MetricsRecorder.class);
      context.getBean(Gate.class);

      assertThat(breakerStates()).hasSize(1);
    });
  }

  private List<MetricData> breakerStates() {
    return reader.collectAllMetrics().stream()
        .filter(metric -> metric.getName().equals(TelemetryNames.BREAKER_STATE_METRIC)).toList();
  }
}
