package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.tollgate.config.ConfigException;
import io.tollgate.config.LeasesConfig;
import io.tollgate.config.TelemetryExport;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Gate;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The keys that the YAML loader and the agent read beside the core limits (leases, telemetry) bind
 * in Spring too, and the app's own {@link OpenTelemetry} bean receives Tollgate's metrics.
 */
class TelemetryAndLeasesPropertiesTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurationTest.TOLLGATE)
      .withPropertyValues("tollgate.providers.openai.base-url=http://127.0.0.1:9/v1",
          "tollgate.providers.openai.limits.requests-per-minute=600");

  @Test
  void leasesAndTelemetryBindOntoTheCoresConfig() {
    runner.withPropertyValues("tollgate.providers.openai.limits.leases.size=50",
            "tollgate.providers.openai.limits.leases.ttl=1s",
            "tollgate.tenants.header=X-Tenant-Id",
            "tollgate.tenants.limits.requests-per-minute=60",
            "tollgate.tenants.limits.leases.ttl=300ms",
            "tollgate.telemetry.export=otlp")
        .run(context -> {
          assertThat(context).hasNotFailed();
          TollgateConfig config = context.getBean(TollgateConfig.class);
          LeasesConfig provider = config.providers().get("openai").limits().leases().orElseThrow();
          assertThat(provider.size()).isEqualTo(OptionalLong.of(50));
          assertThat(provider.ttl()).isEqualTo(Duration.ofSeconds(1));
          LeasesConfig tenants = config.tenants().orElseThrow().limits().leases().orElseThrow();
          assertThat(tenants.size()).isEmpty(); // auto
          assertThat(tenants.ttl()).isEqualTo(Duration.ofMillis(300));
          assertThat(config.telemetry().export()).isEqualTo(TelemetryExport.OTLP);
        });
  }

  @Test
  void withoutLeasesNoneAreTaken() {
    runner.run(context -> assertThat(context.getBean(TollgateConfig.class)
        .providers().get("openai").limits().leases()).isEmpty());
  }

  @Test
  void aBadLeaseSizeFailsNamingItsKey() {
    runner.withPropertyValues("tollgate.providers.openai.limits.leases.size=big").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .isInstanceOf(ConfigException.class)
          .hasMessage("tollgate.providers.openai.limits.leases.size must be auto or a whole number"
              + " of calls > 0, was big");
    });
  }

  @Test
  void theAppsOpenTelemetryBeanGetsTheBreakerStates() {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
        .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
        .build();
    runner.withBean(OpenTelemetry.class, () -> sdk).run(context -> {
      assertThat(context).hasNotFailed();
      context.getBean(Gate.class);

      List<MetricData> states = reader.collectAllMetrics().stream()
          .filter(metric -> metric.getName().equals("tollgate.breaker.state")).toList();

      assertThat(states).hasSize(1);
      assertThat(states.get(0).getLongGaugeData().getPoints())
          .singleElement()
          .satisfies(point -> {
            assertThat(point.getValue()).isZero(); // closed
            assertThat(point.getAttributes().get(AttributeKey.stringKey("tollgate.provider")))
                .isEqualTo("openai");
          });
    });
    sdk.close();
  }
}
