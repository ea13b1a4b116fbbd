package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.trace.v1.Span;
import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.llm.MockLlmServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plain OkHttp app under both the OpenTelemetry Java agent and Tollgate's, in either order,
 * the OpenTelemetry agent exporting to an OTLP receiver: the app works, is limited exactly,
 * Tollgate's spans and metrics leave through the OpenTelemetry agent's exporter (whatever
 * {@code tollgate.telemetry.export} says), and each request sent has exactly one HTTP client span,
 * under Tollgate's attempt.
 */
class OtelJavaAgentIT {

  @AutoClose static final MockLlmServer provider = MockLlmServer.start().usage(12, 20);

  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to both agents\"}]}";

  @TempDir Path dir;
  OtlpReceiver receiver;

  @BeforeEach
  void start() throws Exception {
    provider.reset();
    receiver = OtlpReceiver.start();
  }

  @AfterEach
  void stop() {
    receiver.close();
  }

  static Path otelAgent() {
    Path jar = Path.of(System.getProperty("tollgate.it.libs", "target/it-libs"),
        "otel-javaagent", "opentelemetry-javaagent.jar");
    assertThat(jar).exists();
    return jar;
  }

  @ParameterizedTest(name = "OpenTelemetry agent {0}, export: {1}")
  @CsvSource({"first, otlp", "second, otlp", "second, none"})
  void bothAgentsTogether(String otelPosition, String export) throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          telemetry:
            export: %s
          providers:
            openai:
              base-url: %s
              limits:
                requests-per-hour: 2
        """.formatted(export, provider.baseUrl()));
    ForkedApp app = ForkedApp.okhttp("4", dir.resolve("app"));
    String otel = "-javaagent:" + otelAgent().toAbsolutePath();
    if (otelPosition.equals("first")) {
      app.jvmOption(otel).withAgent("config=" + config);
    } else {
      app.withAgent("config=" + config).jvmOption(otel);
    }
    Run run = app
        .jvmOption("-Dotel.exporter.otlp.endpoint=" + receiver.endpoint())
        .jvmOption("-Dotel.exporter.otlp.protocol=http/protobuf")
        .jvmOption("-Dotel.bsp.schedule.delay=50")
        .jvmOption("-Dotel.metric.export.interval=500")
        .jvmOption("-Dotel.logs.exporter=none")
        .jvmOption("-Dotel.service.name=okhttp-app")
        // Tollgate's metrics go out with the OpenTelemetry agent's periodic export: an app that
        // ended at once after its calls lost them in about one run in ten (its final export at
        // shutdown did not carry them); three intervals more and every run had them
        .jvmOption("-Dapp.linger-ms=1500")
        .calls(3, "sync", provider.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200, 200, 429);
    assertThat(provider.requestCount()).isEqualTo(2);
    assertThat(run.tollgateLines()).as(run.toString()).first().asString()
        .startsWith("[tollgate] on:");
    // the OpenTelemetry agent's GlobalOpenTelemetry is set: Tollgate records into it, and with
    // export: otlp says so instead of starting an SDK of its own
    assertThat(run.tollgateLines()).as(run.toString()).hasSize(export.equals("otlp") ? 2 : 1);
    if (export.equals("otlp")) {
      assertThat(run.tollgateLines().get(1)).isEqualTo("[tollgate] telemetry: recording into the"
          + " OpenTelemetry Java agent's GlobalOpenTelemetry; export: otlp starts no SDK of its own");
    }

    List<Span> attempts = await("tollgate.attempt", 2);
    List<Span> calls = await("tollgate.call", 3);
    Set<String> attemptIds = attempts.stream().map(s -> hex(s.getSpanId())).collect(Collectors.toSet());
    List<Span> clientSpans = awaitClientSpans(2);
    // each request on the wire: exactly one client span, under Tollgate's attempt
    List<Span> sent = clientSpans.stream()
        .filter(span -> attemptIds.contains(hex(span.getParentSpanId()))).toList();
    assertThat(sent).as("client spans under attempts:\n%s", summary()).hasSize(2);
    assertThat(sent).extracting(span -> hex(span.getParentSpanId()))
        .containsExactlyInAnyOrderElementsOf(attemptIds);
    // When the OpenTelemetry agent's OkHttp interceptors end up ahead of Tollgate's (it attached
    // second), the call Tollgate answered itself is reported too: one client span, status 429,
    // outside any attempt (nothing was sent). Never a second span for a request sent.
    List<Span> others = clientSpans.stream().filter(span -> !sent.contains(span)).toList();
    assertThat(others).as(summary()).hasSizeLessThanOrEqualTo(1)
        .allSatisfy(span -> assertThat(span.getAttributesList()).anySatisfy(kv -> {
          assertThat(kv.getKey()).isEqualTo("http.response.status_code");
          assertThat(kv.getValue().getIntValue()).isEqualTo(429);
        }));
    // the agents' own OTLP exports are not traced: no client span to the receiver
    assertThat(receiver.spans()).as(summary()).noneMatch(span -> span.getKind() == Span.SpanKind.SPAN_KIND_CLIENT
        && span.getAttributesList().stream().anyMatch(kv -> kv.getKey().equals("url.full")
            && kv.getValue().getStringValue().startsWith(receiver.endpoint())));
    assertThat(calls).allSatisfy(call -> assertThat(call.getParentSpanId().isEmpty()).isTrue());
    // exported by the OpenTelemetry agent's SDK, with its resource
    assertThat(calls).allSatisfy(call -> assertThat(receiver.serviceOf(call)).isEqualTo("okhttp-app"));
    assertThat(awaitMetricServices("tollgate.decisions")).containsOnly("okhttp-app");
  }

  /** The services {@code metric} came from, once it has come (an export may still be on its way). */
  private Set<String> awaitMetricServices(String metric) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline && receiver.servicesOf(metric).isEmpty()) {
      Thread.sleep(20);
    }
    return receiver.servicesOf(metric);
  }

  private List<Span> await(String name, int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline && named(name).size() < count) {
      Thread.sleep(20);
    }
    assertThat(named(name)).as("%s spans in %s", name, receiver.spans()).hasSize(count);
    return named(name);
  }

  private List<Span> awaitClientSpans(int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline && clientSpans().size() < count) {
      Thread.sleep(20);
    }
    return clientSpans();
  }

  /** The OpenTelemetry agent's HTTP client spans of requests to the provider. */
  private List<Span> clientSpans() {
    return receiver.spans().stream()
        .filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_CLIENT)
        .filter(s -> s.getAttributesList().stream().anyMatch(kv -> kv.getKey().equals("server.port")
            && kv.getValue().getIntValue() == provider.port()))
        .toList();
  }

  /** One line per span received: name, kind, id, parent. */
  private String summary() {
    return receiver.spans().stream().map(s -> s.getName() + " " + s.getKind() + " "
        + hex(s.getSpanId()) + " <- " + hex(s.getParentSpanId()) + " " + s.getAttributesList().stream()
            .filter(kv -> kv.getKey().equals("url.full") || kv.getKey().equals("http.response.status_code"))
            .map(kv -> kv.getValue().toString().trim()).collect(Collectors.joining(" ")))
        .collect(Collectors.joining("\n"));
  }

  private List<Span> named(String name) {
    return receiver.spans().stream().filter(s -> s.getName().equals(name)).toList();
  }

  private static String hex(ByteString bytes) {
    return HexFormat.of().formatHex(bytes.toByteArray());
  }
}
