package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tollgate.gate.Gate;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * {@code tollgate.tokens.max-buffered-body} through Spring's properties ({@code 64KB}): a body of
 * 20 MB, published by WebClient in buffers of unknown total or handed to RestClient whole, reaches
 * the provider byte for byte, and is charged by its size, never tokenized.
 */
@SpringBootTest(classes = {TestApp.class, BoundedBodiesAppTest.AppTelemetry.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tollgate.tokens.max-buffered-body=64KB",
        "tollgate.providers.openai.limits.tokens-per-day=100000000"})
class BoundedBodiesAppTest {

  static final MockLlmServer primary = MockLlmServer.start();
  static final InMemorySpanExporter spans = InMemorySpanExporter.create();
  static final int SIZE = 20_000_000;
  static final int BOUND = 64 * 1024;

  @Autowired
  WebClient.Builder webClients;
  @Autowired
  RestClient.Builder restClients;
  @Autowired
  Gate gate;

  @DynamicPropertySource
  static void fixtures(DynamicPropertyRegistry registry) {
    registry.add("tollgate.providers.openai.base-url", primary::baseUrl);
  }

  @AfterAll
  static void stop() {
    primary.close();
  }

  @BeforeEach
  void reset() {
    primary.reset();
    spans.reset();
    // an answer without usage: the settle is Tollgate's own estimate, from every byte sent
    primary.script().next(1, Fault.malformedJson());
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
  void theBoundIsReadFromSpringsProperties() {
    assertThat(gate.config().tokens().maxBufferedBody()).isEqualTo(BOUND);
  }

  @Test
  void aWebClientBodyOfUnknownLengthPastTheBoundStreamsUnchangedAndIsChargedByItsSize() throws Exception {
    byte[] answer = webClients.baseUrl(primary.baseUrl()).build()
        .post().uri("/v1/chat/completions")
        .header("Authorization", "Bearer sk-app")
        .contentType(MediaType.APPLICATION_JSON)
        .body(BodyInserters.fromDataBuffers(GeneratedChat.flux(SIZE)))
        .retrieve().bodyToMono(byte[].class).block(Duration.ofSeconds(60));

    assertThat(answer).isEqualTo(Fault.malformedJson().body());
    RecordedRequest sent = primary.requests().get(0);
    assertThat(primary.requests()).hasSize(1);
    assertThat(sent.body()).hasSize(SIZE);
    assertThat(GeneratedChat.sha256(sent.body())).isEqualTo(GeneratedChat.sha256(SIZE));
    SpanData call = awaitCall();
    assertThat(call.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo("gpt-4o");
    assertThat(call.getAttributes().get(AttributeKey.longKey("tollgate.tokens.reserved")))
        .as("the bound + 1 bytes held before sending, / 4 rounded up, and max_tokens")
        .isEqualTo((BOUND + 1 + 3) / 4 + GeneratedChat.MAX_TOKENS);
    assertThat(call.getAttributes().get(AttributeKey.longKey("tollgate.tokens.settled")))
        .as("every byte sent, / 4 rounded up, and max_tokens")
        .isEqualTo((SIZE + 3) / 4 + GeneratedChat.MAX_TOKENS);
  }

  @Test
  void aRestClientBodyPastTheBoundIsChargedByItsLengthAndSentUnchanged() throws Exception {
    byte[] body = GeneratedChat.bytes(SIZE);

    byte[] answer = restClients.baseUrl(primary.baseUrl()).build()
        .post().uri("/v1/chat/completions")
        .header("Authorization", "Bearer sk-app")
        .contentType(MediaType.APPLICATION_JSON)
        .body(body)
        .retrieve().body(byte[].class);

    assertThat(answer).isEqualTo(Fault.malformedJson().body());
    assertThat(primary.requests()).singleElement()
        .satisfies(sent -> assertThat(GeneratedChat.sha256(sent.body())).isEqualTo(GeneratedChat.sha256(body)));
    SpanData call = awaitCall();
    long bySize = (SIZE + 3) / 4 + GeneratedChat.MAX_TOKENS;
    assertThat(call.getAttributes().get(AttributeKey.longKey("tollgate.tokens.reserved")))
        .as("its length / 4 rounded up, and max_tokens: not tokenized").isEqualTo(bySize);
    assertThat(call.getAttributes().get(AttributeKey.longKey("tollgate.tokens.settled"))).isEqualTo(bySize);
  }

  private static SpanData awaitCall() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() - deadline < 0) {
      List<SpanData> calls = spans.getFinishedSpanItems().stream()
          .filter(span -> span.getName().equals("tollgate.call")).toList();
      if (!calls.isEmpty()) {
        assertThat(calls).hasSize(1);
        return calls.get(0);
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no tollgate.call span: " + spans.getFinishedSpanItems());
  }
}
