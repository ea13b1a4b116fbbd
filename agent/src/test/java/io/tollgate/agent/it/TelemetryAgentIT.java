package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.trace.v1.Span;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent with {@code tollgate.telemetry.export: otlp} in an app that traces itself with its own
 * OpenTelemetry SDK: the agent's spans reach an OTLP receiver, as children of the app's span, and
 * the app's view of each request sent is the agent's attempt span.
 */
class TelemetryAgentIT {

  @AutoClose static final MockLlmServer provider = MockLlmServer.start().usage(12, 20);

  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the tracer\"}]}";
  private static final String APP_KEY = "sk-app-traced-4c1e";

  @TempDir Path dir;
  @AutoClose OtlpReceiver receiver;

  @Test
  void theAgentsSpansArriveOverOtlpUnderTheAppsSpanWithTheAttemptCurrentWhileSent() throws Exception {
    receiver = OtlpReceiver.start();
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          telemetry:
            export: otlp
          providers:
            openai:
              base-url: %s
              limits:
                requests-per-hour: 10
        """.formatted(provider.baseUrl()));

    Run run = ForkedApp.launcher(dir.resolve("app"), classPath(),
            "io.tollgate.agent.it.app.TracedOkHttpApp",
            provider.baseUrl() + "/v1/chat/completions", CHAT)
        .withAgent("config=" + config)
        .env("APP_KEY", APP_KEY)
        .jvmOption("-Dotel.exporter.otlp.endpoint=" + receiver.endpoint())
        .jvmOption("-Dotel.bsp.schedule.delay=50")
        .jvmOption("-Dotel.metric.export.interval=200")
        .jvmOption("-Dotel.service.name=traced-app")
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stdout()).as(run.toString()).contains("status 200");
    assertThat(run.tollgateLines()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] on:").endsWith(", telemetry otlp");
    String[] app = line(run, "app-span ").split(" ");
    String appTrace = app[1];
    String appSpan = app[2];

    Span call = awaitSpan("tollgate.call");
    Span attempt = awaitSpan("tollgate.attempt");
    assertThat(hex(call.getTraceId())).isEqualTo(appTrace);
    assertThat(hex(call.getParentSpanId())).isEqualTo(appSpan);
    assertThat(hex(attempt.getTraceId())).isEqualTo(appTrace);
    assertThat(hex(attempt.getParentSpanId())).isEqualTo(hex(call.getSpanId()));
    // what an HTTP client instrumentation in the app sees as its parent: our attempt
    assertThat(run.stdout().stream().filter(l -> l.startsWith("network-span ")).toList())
        .containsExactly("network-span " + hex(attempt.getSpanId()));

    Map<String, String> attributes = attributes(call);
    assertThat(attributes).containsEntry("tollgate.decision", "allowed")
        .containsEntry("tollgate.provider", "openai")
        .containsEntry("gen_ai.provider.name", "openai")
        .containsEntry("gen_ai.request.model", "gpt-4o")
        .containsEntry("gen_ai.usage.input_tokens", "12")
        .containsEntry("gen_ai.usage.output_tokens", "20")
        .containsEntry("tollgate.tokens.settled", "32")
        .containsEntry("tollgate.attempt", "1");
    assertThat(attributes(attempt)).containsEntry("http.response.status_code", "200");
    assertThat(receiver.spans()).allSatisfy(span ->
        assertThat(attributes(span).values()).noneMatch(value -> value.contains(APP_KEY)));

    List<String> metricNames = awaitMetrics().stream().map(Metric::getName).distinct().toList();
    assertThat(metricNames).contains("tollgate.decisions", "tollgate.limiter.duration",
        "tollgate.tokens.reserved", "tollgate.tokens.used", "tollgate.breaker.state");
  }

  private static String line(Run run, String prefix) {
    return run.stdout().stream().filter(l -> l.startsWith(prefix)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + prefix + "line: " + run));
  }

  private Span awaitSpan(String name) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      List<Span> found = receiver.spans().stream().filter(s -> s.getName().equals(name)).toList();
      if (!found.isEmpty()) {
        assertThat(found).as("%s spans", name).hasSize(1);
        return found.get(0);
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no " + name + " span arrived; got " + receiver.spans());
  }

  private List<Metric> awaitMetrics() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline && receiver.metrics().stream()
        .noneMatch(m -> m.getName().equals("tollgate.tokens.used"))) {
      Thread.sleep(20);
    }
    return receiver.metrics();
  }

  private static String hex(ByteString bytes) {
    return HexFormat.of().formatHex(bytes.toByteArray());
  }

  private static Map<String, String> attributes(Span span) {
    return span.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey,
        kv -> kv.getValue().hasStringValue() ? kv.getValue().getStringValue()
            : kv.getValue().hasIntValue() ? Long.toString(kv.getValue().getIntValue())
            : kv.getValue().hasBoolValue() ? Boolean.toString(kv.getValue().getBoolValue())
            : kv.getValue().toString()));
  }

  /** The app's classes, OkHttp 5 and the app's own OpenTelemetry SDK. */
  private static String classPath() throws IOException {
    List<String> entries = new ArrayList<>();
    entries.add(ForkedApp.appClasses().toString());
    for (Path libs : List.of(ForkedApp.libs("5"), ForkedApp.libs("5").resolveSibling("otel-app"))) {
      try (Stream<Path> jars = Files.list(libs)) {
        jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> entries.add(p.toString()));
      }
    }
    return String.join(File.pathSeparator, entries);
  }
}
