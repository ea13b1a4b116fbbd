package io.tollgate.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.tollgate.spring.boot.metrics.MicrometerMetrics;
import io.tollgate.telemetry.MetricsRecorder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Tollgate's metrics in Boot's {@link MeterRegistry} when the app has one (any app with the
 * actuator): the gate's {@code Telemetry} then records them there <em>instead of</em> through
 * OpenTelemetry, so whatever carries Boot's meters (a Prometheus scrape, an OTLP registry, a
 * bridge into the app's OpenTelemetry SDK) carries each measurement once. Runs after Boot's meter
 * registries are defined: the composite's auto-configuration, named for both Boot lines.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
@ConditionalOnBean(type = "io.micrometer.core.instrument.MeterRegistry")
@ConditionalOnProperty(name = {"tollgate.enabled", "tollgate.telemetry.micrometer.enabled"}, havingValue = "true",
    matchIfMissing = true)
public class TollgateMetricsAutoConfiguration {

  /** Registers its meters in the app's primary registry (Boot's composite when there are several). */
  @Bean
  @ConditionalOnMissingBean(MetricsRecorder.class)
  public MicrometerMetrics tollgateMicrometerMetrics(MeterRegistry registry) {
    return new MicrometerMetrics(registry);
  }
}
