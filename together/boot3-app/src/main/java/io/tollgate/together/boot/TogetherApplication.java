package io.tollgate.together.boot;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A chat service as teams write them, run as {@code java -jar} with the Tollgate agent attached
 * fleet-wide: the starter limits its tenants on the way in and its Spring clients on the way out,
 * the agent every other client. With {@code app.opentelemetry=true} it has an OpenTelemetry bean of
 * its own, whose spans {@code GET /spans} lists.
 */
@SpringBootApplication
public class TogetherApplication {

  public static void main(String[] args) {
    SpringApplication.run(TogetherApplication.class, args);
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(name = "app.opentelemetry", havingValue = "true")
  static class AppOpenTelemetry {

    @Bean
    InMemorySpanExporter spans() {
      return InMemorySpanExporter.create();
    }

    @Bean
    OpenTelemetry openTelemetry(InMemorySpanExporter spans) {
      return OpenTelemetrySdk.builder()
          .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
          .build();
    }
  }
}
