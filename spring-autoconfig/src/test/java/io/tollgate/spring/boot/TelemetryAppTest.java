package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tollgate.limiter.Subject;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.testkit.llm.MockLlmServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * The app's own {@link OpenTelemetry} bean receives the spans of both front ends the starter wires:
 * the outbound call through Boot's RestClient ({@code tollgate.call}) and the inbound request
 * through the filter ({@code tollgate.inbound}), with exact decisions, and no key or raw tenant id
 * in any attribute.
 */
@SpringBootTest(classes = {TestApp.class, TelemetryAppTest.AppTelemetry.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tollgate.providers.openai.limits.requests-per-hour=1",
        "tollgate.tenants.header=X-Tenant-Id",
        "tollgate.tenants.limits.requests-per-hour=5"})
class TelemetryAppTest {

  static final MockLlmServer primary = MockLlmServer.start();
  static final InMemorySpanExporter spans = InMemorySpanExporter.create();
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";
  static final String APP_KEY = "sk-app-secret-for-telemetry";
  static final String TENANT = "tenant-raw-id-42";

  @Autowired
  RestClient.Builder restClients;
  @Autowired
  Environment environment;

  @DynamicPropertySource
  static void fixtures(DynamicPropertyRegistry registry) {
    registry.add("tollgate.providers.openai.base-url", primary::baseUrl);
  }

  @AfterAll
  static void stop() {
    primary.close();
  }

  /** What an app with OpenTelemetry has: its own SDK as a bean. */
  @TestConfiguration
  static class AppTelemetry {
    @Bean
    OpenTelemetry openTelemetry() {
      return OpenTelemetrySdk.builder()
          .setTracerProvider(SdkTracerProvider.builder()
              .addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
          .build();
    }
  }

  @Test
  void outboundAndInboundDecisionsAreSpansOfTheAppsSdk() throws Exception {
    spans.reset();
    RestClient client = restClients.baseUrl(primary.baseUrl()).build();

    List<Integer> statuses = List.of(call(client), call(client));
    HttpResponse<String> inbound = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + "/v1/chat/completions"))
        .header("X-Tenant-Id", TENANT).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(CHAT)).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(statuses).containsExactly(200, 429);
    assertThat(inbound.statusCode()).isEqualTo(200);
    List<SpanData> calls = named("tollgate.call");
    assertThat(calls).extracting(span -> span.getAttributes().get(AttributeKey.stringKey("tollgate.decision")))
        .containsExactly("allowed", "denied");
    assertThat(calls).allSatisfy(span -> {
      assertThat(span.getAttributes().get(AttributeKey.stringKey("tollgate.provider"))).isEqualTo("openai");
      assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo("gpt-4o");
    });
    assertThat(calls.get(1).getAttributes().get(AttributeKey.stringKey("tollgate.limit")))
        .isEqualTo("provider:requests-per-hour");
    assertThat(named("tollgate.attempt")).hasSize(1); // the refused call sent nothing
    // the filter ends its span when it settles, after the chain returns: the client may have the
    // whole response (its length was known) a moment before that
    List<SpanData> inboundSpans = awaitSpan("tollgate.inbound");
    assertThat(inboundSpans).singleElement().satisfies(span -> {
      assertThat(span.getAttributes().get(AttributeKey.stringKey("tollgate.decision"))).isEqualTo("allowed");
      assertThat(span.getAttributes().get(AttributeKey.stringKey("tollgate.tenant.hash")))
          .isEqualTo(Subject.of("tenant", TENANT).idHash());
    });
    assertThat(spans.getFinishedSpanItems()).allSatisfy(span -> span.getAttributes().forEach((key, value) ->
        assertThat(String.valueOf(value)).as(key.getKey()).doesNotContain(APP_KEY).doesNotContain(TENANT)));
  }

  private static int call(RestClient client) {
    return client.post().uri("/v1/chat/completions")
        .header("Authorization", "Bearer " + APP_KEY)
        .contentType(MediaType.APPLICATION_JSON).body(CHAT)
        .exchange((request, response) -> {
          response.getBody().readAllBytes(); // the end of the body settles the call and ends its span
          return response.getStatusCode().value();
        });
  }

  private static List<SpanData> awaitSpan(String name) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (named(name).isEmpty() && System.nanoTime() - deadline < 0) {
      Thread.sleep(10);
    }
    return named(name);
  }

  private static List<SpanData> named(String name) {
    return spans.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name)).toList();
  }
}
