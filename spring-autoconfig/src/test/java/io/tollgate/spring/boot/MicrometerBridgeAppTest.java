package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.instrumentation.micrometer.v1_5.OpenTelemetryMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.telemetry.TelemetryNames;
import io.tollgate.testkit.llm.MockLlmServer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * An app with its own OpenTelemetry SDK bean and Micrometer bridged into it (an
 * {@link OpenTelemetryMeterRegistry}, beside Boot's Prometheus registry): the SDK's metric export
 * holds each of Tollgate's decisions once, through the bridge, and no instrument of Tollgate's own
 * scope that would count them again; the spans still reach the SDK.
 */
@SpringBootTest(classes = {TestApp.class, MicrometerBridgeAppTest.AppTelemetry.class},
    webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "tollgate.providers.openai.limits.requests-per-hour=2",
        "management.prometheus.metrics.export.enabled=true"})
class MicrometerBridgeAppTest {

  static final MockLlmServer primary = MockLlmServer.start();
  static final InMemorySpanExporter spans = InMemorySpanExporter.create();
  static final InMemoryMetricReader metrics = InMemoryMetricReader.create();
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";

  @Autowired
  RestClient.Builder restClients;

  @DynamicPropertySource
  static void fixtures(DynamicPropertyRegistry registry) {
    registry.add("tollgate.providers.openai.base-url", primary::baseUrl);
  }

  @AfterAll
  static void stop() {
    primary.close();
  }

  /** The app's SDK, exporting spans and metrics, and Micrometer's meters bridged into it. */
  @TestConfiguration
  static class AppTelemetry {
    @Bean
    OpenTelemetry openTelemetry() {
      return OpenTelemetrySdk.builder()
          .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
          .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
          .build();
    }

    @Bean
    MeterRegistry openTelemetryMeterRegistry(OpenTelemetry openTelemetry) {
      return OpenTelemetryMeterRegistry.builder(openTelemetry).build();
    }
  }

  @Test
  void theSdksExportHoldsEachDecisionOnceThroughTheBridge() {
    RestClient client = restClients.baseUrl(primary.baseUrl()).build();
    assertThat(List.of(call(client), call(client), call(client))).containsExactly(200, 200, 429);

    Collection<MetricData> exported = metrics.collectAllMetrics();
    assertThat(exported).filteredOn(metric -> metric.getInstrumentationScopeInfo().getName()
        .equals(TelemetryNames.SCOPE)).isEmpty();
    List<MetricData> decisions = exported.stream()
        .filter(metric -> metric.getName().equals(TelemetryNames.DECISIONS_METRIC)).toList();
    assertThat(decisions).singleElement().satisfies(metric -> {
      assertThat(metric.getInstrumentationScopeInfo().getName()).isEqualTo("io.opentelemetry.micrometer-1.5");
      Map<String, Double> counts = metric.getDoubleSumData().getPoints().stream().collect(Collectors.toMap(
          point -> point.getAttributes().get(AttributeKey.stringKey("tollgate.decision")),
          DoublePointData::getValue));
      assertThat(counts).isEqualTo(Map.of("allowed", 2.0, "denied", 1.0));
      assertThat(metric.getDoubleSumData().getPoints()).extracting(point -> point.getAttributes())
          .containsExactlyInAnyOrder(
              Attributes.of(AttributeKey.stringKey("tollgate.decision"), "allowed",
                  AttributeKey.stringKey("tollgate.direction"), "outbound",
                  AttributeKey.stringKey("tollgate.provider"), "openai"),
              Attributes.of(AttributeKey.stringKey("tollgate.decision"), "denied",
                  AttributeKey.stringKey("tollgate.direction"), "outbound",
                  AttributeKey.stringKey("tollgate.provider"), "openai"));
    });
    assertThat(spans.getFinishedSpanItems()).filteredOn(span -> span.getName().equals(TelemetryNames.CALL_SPAN))
        .extracting(span -> span.getAttributes().get(AttributeKey.stringKey("tollgate.decision")))
        .containsExactly("allowed", "allowed", "denied");
  }

  private static int call(RestClient client) {
    return client.post().uri("/v1/chat/completions")
        .header("Authorization", "Bearer sk-app")
        .contentType(MediaType.APPLICATION_JSON).body(CHAT)
        .exchange((request, response) -> {
          response.getBody().readAllBytes(); // the end of the body settles the call and ends its span
          return response.getStatusCode().value();
        });
  }
}
