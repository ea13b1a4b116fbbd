package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent's telemetry in an app that traces itself with its own OpenTelemetry SDK. Kept private
 * by the app, with {@code tollgate.telemetry.export: otlp}: the agent's own SDK sends its spans to
 * an OTLP receiver, as children of the app's span. Registered as the app's GlobalOpenTelemetry:
 * the agent records into it, whatever {@code export} says, and its spans and metrics leave through
 * the app's exporter. Either way the app's view of each request sent is the agent's attempt span.
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
        // no periodic export before the app ends: every metric, the breaker state gauge included,
        // must leave in the export the agent makes at shutdown
        .jvmOption("-Dotel.metric.export.interval=600000")
        .jvmOption("-Dotel.service.name=traced-app")
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stdout()).as(run.toString()).contains("status 200");
    assertThat(run.tollgateLines()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] on:").endsWith(", telemetry otlp, version " + ForkedApp.agentVersion());
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
    // exported by the agent's own SDK (the app's is private and drops its spans)
    assertThat(receiver.serviceOf(call)).isEqualTo("traced-app");

    List<String> metricNames = awaitMetrics().stream().map(Metric::getName).distinct().toList();
    assertThat(metricNames).contains("tollgate.decisions", "tollgate.limiter.duration",
        "tollgate.tokens.reserved", "tollgate.tokens.used", "tollgate.breaker.state");
  }

  /** {@code otel-app}: the project's OpenTelemetry; {@code otel-app-old}: 1.49, before isSet(). */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"otel-app", "otel-app-old"})
  void withExportNoneTheAgentRecordsIntoTheAppsGlobalSdk(String otelLibs) throws Exception {
    receiver = OtlpReceiver.start();
    Run run = runGlobalSdkApp("none", otelLibs);

    assertThat(run.tollgateLines()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] on:").doesNotContain("telemetry otlp");
    assertRecordedThroughTheAppsSdk(run);
  }

  @Test
  void withExportOtlpTheAppsGlobalSdkIsUsedAndNoSdkOfTheAgentsIsStarted() throws Exception {
    receiver = OtlpReceiver.start();
    Run run = runGlobalSdkApp("otlp", "otel-app");

    assertThat(run.tollgateLines()).as(run.toString()).containsExactly(
        run.tollgateLines().get(0),
        "[tollgate] telemetry: recording into the app's GlobalOpenTelemetry;"
            + " export: otlp starts no SDK of its own");
    assertThat(run.tollgateLines().get(0)).startsWith("[tollgate] on:").endsWith(", telemetry otlp, version " + ForkedApp.agentVersion());
    assertRecordedThroughTheAppsSdk(run);
  }

  /**
   * The app traces through the OpenTelemetry API alone ({@code GlobalOpenTelemetry.getTracer}) under
   * the OpenTelemetry Java agent: Tollgate records into the OpenTelemetry agent's instance, in the
   * app's trace, and the agent's client span of the request sent is under the attempt.
   */
  @Test
  void underTheOtelJavaAgentAnAppWithItsOwnApiGetsTheSpansThroughTheOtelAgent() throws Exception {
    receiver = OtlpReceiver.start();
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          providers:
            openai:
              base-url: %s
              limits:
                requests-per-hour: 10
        """.formatted(provider.baseUrl()));
    Run run = ForkedApp.launcher(dir.resolve("app"), classPath(),
            "io.tollgate.agent.it.app.TracedOkHttpApp",
            provider.baseUrl() + "/v1/chat/completions", CHAT)
        .jvmOption("-javaagent:" + OtelJavaAgentIT.otelAgent().toAbsolutePath())
        .withAgent("config=" + config)
        .env("APP_KEY", APP_KEY)
        .jvmOption("-Dotel.exporter.otlp.endpoint=" + receiver.endpoint())
        .jvmOption("-Dotel.exporter.otlp.protocol=http/protobuf")
        .jvmOption("-Dotel.bsp.schedule.delay=50")
        .jvmOption("-Dotel.metric.export.interval=200")
        .jvmOption("-Dotel.logs.exporter=none")
        .jvmOption("-Dotel.service.name=otel-agent-app")
        .jvmOption("-Dapp.api-only=true")
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stdout()).as(run.toString()).contains("status 200");
    assertThat(run.tollgateLines()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] on:");
    String[] app = line(run, "app-span ").split(" ");
    Span call = awaitSpan("tollgate.call");
    Span attempt = awaitSpan("tollgate.attempt");
    String summary = run + "\n" + receiver.spans().stream().map(sp -> sp.getName() + " " + hex(sp.getTraceId())
        + " " + hex(sp.getSpanId()) + " <- " + hex(sp.getParentSpanId()) + " " + receiver.serviceOf(sp))
        .collect(Collectors.joining("\n"));
    assertThat(hex(call.getTraceId())).as(summary).isEqualTo(app[1]);
    assertThat(hex(call.getParentSpanId())).as(summary).isEqualTo(app[2]);
    assertThat(hex(attempt.getParentSpanId())).isEqualTo(hex(call.getSpanId()));
    assertThat(receiver.serviceOf(call)).isEqualTo("otel-agent-app");
    assertThat(receiver.serviceOf(attempt)).isEqualTo("otel-agent-app");
    assertThat(hex(awaitSpan("app.work").getSpanId())).isEqualTo(app[2]);
    assertThat(attributes(call)).containsEntry("tollgate.decision", "allowed")
        .containsEntry("tollgate.tokens.settled", "32");
    // the app's network interceptor runs inside the OpenTelemetry agent's client span of the request
    Span client = receiver.spans().stream()
        .filter(span -> span.getKind() == Span.SpanKind.SPAN_KIND_CLIENT
            && hex(span.getParentSpanId()).equals(hex(attempt.getSpanId())))
        .findFirst().orElseThrow(() -> new AssertionError("no client span under the attempt: " + summary));
    assertThat(run.stdout().stream().filter(l -> l.startsWith("network-span ")).toList())
        .containsExactly("network-span " + hex(client.getSpanId()));
  }

  /** The traced app with its SDK as GlobalOpenTelemetry, exporting to the receiver itself. */
  private Run runGlobalSdkApp(String export, String otelLibs) throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          telemetry:
            export: %s
          providers:
            openai:
              base-url: %s
              limits:
                requests-per-hour: 10
        """.formatted(export, provider.baseUrl()));
    Run run = ForkedApp.launcher(dir.resolve("app"), classPath(otelLibs),
            "io.tollgate.agent.it.app.TracedOkHttpApp",
            provider.baseUrl() + "/v1/chat/completions", CHAT)
        .withAgent("config=" + config)
        .env("APP_KEY", APP_KEY)
        .jvmOption("-Dapp.otlp.endpoint=" + receiver.endpoint())
        // were the agent to start its own SDK, it would export here, as another service
        .jvmOption("-Dotel.exporter.otlp.endpoint=" + receiver.endpoint())
        .jvmOption("-Dotel.bsp.schedule.delay=50")
        .jvmOption("-Dotel.metric.export.interval=200")
        .jvmOption("-Dotel.service.name=tollgate-own-sdk")
        .run();
    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stdout()).as(run.toString()).contains("status 200");
    return run;
  }

  /**
   * Tollgate's spans and metrics left through the app's SDK (its resource, its exporter), as
   * ordinary children of the app's span, with their exact attributes.
   */
  private void assertRecordedThroughTheAppsSdk(Run run) throws InterruptedException {
    String[] app = line(run, "app-span ").split(" ");
    Span appSpan = awaitSpan("app.work");
    Span call = awaitSpan("tollgate.call");
    Span attempt = awaitSpan("tollgate.attempt");
    assertThat(hex(appSpan.getSpanId())).isEqualTo(app[2]);
    assertThat(hex(call.getTraceId())).isEqualTo(app[1]);
    assertThat(hex(call.getParentSpanId())).isEqualTo(app[2]);
    assertThat(hex(attempt.getTraceId())).isEqualTo(app[1]);
    assertThat(hex(attempt.getParentSpanId())).isEqualTo(hex(call.getSpanId()));
    // a local parent, as for any span of the app's: the flags say "parent known, not remote"
    assertThat(call.getFlags() & 0x300).isEqualTo(0x100);
    assertThat(attempt.getFlags() & 0x300).isEqualTo(0x100);
    assertThat(call.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_INTERNAL);
    assertThat(attempt.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_INTERNAL);
    assertThat(run.stdout().stream().filter(l -> l.startsWith("network-span ")).toList())
        .containsExactly("network-span " + hex(attempt.getSpanId()));
    assertThat(receiver.spans()).extracting(receiver::serviceOf).containsOnly("traced-app-sdk");
    assertThat(receiver.spans()).extracting(Span::getName)
        .containsExactlyInAnyOrder("app.work", "tollgate.call", "tollgate.attempt");

    Map<String, String> callAttributes = attributes(call);
    String reserved = callAttributes.get("tollgate.tokens.reserved");
    assertThat(Long.parseLong(reserved)).isGreaterThan(300); // the prompt plus max_tokens
    assertThat(callAttributes).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
        Map.entry("gen_ai.provider.name", "openai"),
        Map.entry("gen_ai.system", "openai"),
        Map.entry("gen_ai.request.model", "gpt-4o"),
        Map.entry("gen_ai.response.model", "gpt-4o"),
        Map.entry("gen_ai.usage.input_tokens", "12"),
        Map.entry("gen_ai.usage.output_tokens", "20"),
        Map.entry("tollgate.provider", "openai"),
        Map.entry("tollgate.decision", "allowed"),
        Map.entry("tollgate.mode", "enforce"),
        Map.entry("tollgate.tokens.reserved", reserved),
        Map.entry("tollgate.tokens.settled", "32"),
        // gpt-4o at the bundled 2.50 and 10.00 USD per million: 12 × 2.5 + 20 × 10 µUSD
        Map.entry("tollgate.cost", "2.3E-4"),
        Map.entry("tollgate.attempt", "1"),
        Map.entry("tollgate.degraded", "false")));
    assertThat(attributes(attempt)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "tollgate.provider", "openai",
        "tollgate.attempt", "1",
        "gen_ai.request.model", "gpt-4o",
        "tollgate.breaker.state", "closed",
        "http.response.status_code", "200"));
    assertThat(receiver.spans()).allSatisfy(span ->
        assertThat(attributes(span).values()).noneMatch(value -> value.contains(APP_KEY)));

    awaitMetrics();
    for (String name : List.of("tollgate.decisions", "tollgate.limiter.duration",
        "tollgate.tokens.reserved", "tollgate.tokens.used", "tollgate.breaker.state", "tollgate.cost")) {
      assertThat(receiver.servicesOf(name)).as("%s in %s", name, run).containsOnly("traced-app-sdk");
    }
    assertThat(points(last("tollgate.decisions"))).containsExactly(
        "tollgate.decision=allowed,tollgate.direction=outbound,tollgate.provider=openai -> 1");
    assertThat(points(last("tollgate.tokens.reserved")))
        .containsExactly("tollgate.provider=openai -> " + reserved);
    assertThat(points(last("tollgate.tokens.used"))).containsExactlyInAnyOrder(
        "gen_ai.token.type=input,tollgate.provider=openai -> 12",
        "gen_ai.token.type=output,tollgate.provider=openai -> 20");
    assertThat(points(last("tollgate.breaker.state"))).containsExactly("tollgate.provider=openai -> 0");
    assertThat(points(last("tollgate.cost")))
        .containsExactly("tollgate.model=gpt-4o,tollgate.provider=openai -> 2.3E-4");
    assertThat(points(last("tollgate.limiter.duration")))
        .containsExactly("tollgate.degraded=false,tollgate.provider=openai -> count 1");
    assertThat(last("tollgate.limiter.duration").getUnit()).isEqualTo("s");
    assertThat(last("tollgate.limiter.duration").getHistogram().getDataPoints(0)
        .getExplicitBoundsList()).startsWith(0.00005, 0.0001).endsWith(1.0).hasSize(14);
  }

  /** The last export of {@code name}: the points are cumulative. */
  private Metric last(String name) {
    List<Metric> all = receiver.metrics().stream().filter(m -> m.getName().equals(name)).toList();
    assertThat(all).as(name).isNotEmpty();
    return all.get(all.size() - 1);
  }

  /** {@code key=value,... -> value} per point (sorted keys), {@code -> count N} for histograms. */
  private static List<String> points(Metric metric) {
    if (metric.hasHistogram()) {
      return metric.getHistogram().getDataPointsList().stream()
          .map(p -> keys(p.getAttributesList()) + " -> count " + p.getCount()).toList();
    }
    List<NumberDataPoint> points = metric.hasSum() ? metric.getSum().getDataPointsList()
        : metric.getGauge().getDataPointsList();
    return points.stream().map(p -> keys(p.getAttributesList()) + " -> "
        + (p.hasAsInt() ? Long.toString(p.getAsInt()) : Double.toString(p.getAsDouble()))).toList();
  }

  private static String keys(List<KeyValue> attributes) {
    return attributes.stream().sorted(java.util.Comparator.comparing(KeyValue::getKey))
        .map(kv -> kv.getKey() + "=" + value(kv)).collect(Collectors.joining(","));
  }

  private static String value(KeyValue kv) {
    return kv.getValue().hasStringValue() ? kv.getValue().getStringValue()
        : kv.getValue().hasIntValue() ? Long.toString(kv.getValue().getIntValue())
        : kv.getValue().hasBoolValue() ? Boolean.toString(kv.getValue().getBoolValue())
        : kv.getValue().hasDoubleValue() ? Double.toString(kv.getValue().getDoubleValue())
        : kv.getValue().toString();
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

  /** The metrics received once every one of Tollgate's has been exported at least once. */
  private List<Metric> awaitMetrics() throws InterruptedException {
    // each instrument starts exporting with the first collection after it records, so one export
    // may carry some of them and the next the rest (the breaker gauge, say)
    List<String> expected = List.of("tollgate.decisions", "tollgate.limiter.duration",
        "tollgate.tokens.reserved", "tollgate.tokens.used", "tollgate.breaker.state", "tollgate.cost");
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline && !receiver.metrics().stream().map(Metric::getName)
        .collect(java.util.stream.Collectors.toSet()).containsAll(expected)) {
      Thread.sleep(20);
    }
    return receiver.metrics();
  }

  private static String hex(ByteString bytes) {
    return HexFormat.of().formatHex(bytes.toByteArray());
  }

  private static Map<String, String> attributes(Span span) {
    return span.getAttributesList().stream()
        .collect(Collectors.toMap(KeyValue::getKey, TelemetryAgentIT::value));
  }

  /** The app's classes, OkHttp 5 and the app's own OpenTelemetry SDK. */
  private static String classPath() throws IOException {
    return classPath("otel-app");
  }

  private static String classPath(String otelLibs) throws IOException {
    List<String> entries = new ArrayList<>();
    entries.add(ForkedApp.appClasses().toString());
    for (Path libs : List.of(ForkedApp.libs("5"), ForkedApp.libs("5").resolveSibling(otelLibs))) {
      try (Stream<Path> jars = Files.list(libs)) {
        jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> entries.add(p.toString()));
      }
    }
    return String.join(File.pathSeparator, entries);
  }
}
