package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.trace.v1.Span;
import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each instrumented client (OkHttp 3, 4 and 5, the JDK's {@code HttpClient}, Apache HttpClient
 * 4.5, 5 classic and 5 async) under both the OpenTelemetry Java agent and Tollgate's, in either
 * order, one JVM per client and order doing every scenario: an exact limit, a 429 answered by the
 * fallback with its own key, a stream's bytes unchanged, and one OpenTelemetry client span per
 * request sent, under Tollgate's attempt.
 */
class OtelJavaAgentClientsIT {

  /** Its requests-per-hour: 2 is the limit under test. */
  @AutoClose static final MockLlmServer limited = MockLlmServer.start().usage(12, 20);
  /** Streams once, then refuses with a 429 that the backup must answer. */
  @AutoClose static final MockLlmServer primary = MockLlmServer.start().usage(12, 20);
  @AutoClose static final MockLlmServer backup = MockLlmServer.start().usage(12, 20);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to both agents\"}]}";
  private static final String STREAM = "{\"model\":\"gpt-4o\",\"max_tokens\":500,\"stream\":true,"
      + "\"stream_options\":{\"include_usage\":true},"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Stream a hello\"}]}";

  @TempDir Path dir;
  OtlpReceiver receiver;

  @BeforeEach
  void start() throws Exception {
    limited.reset();
    primary.reset();
    backup.reset();
    receiver = OtlpReceiver.start();
  }

  @AfterEach
  void stop() {
    receiver.close();
  }

  /**
   * A client's app and how it is driven: the mode that streams, the modes of the calls that fall
   * back (each one a 429 from the primary), the three modes of the calls against the limit, and
   * how often the client itself re-sends a 429 before Tollgate sees it (HttpClient 5's default
   * retry strategy does once), and where the OpenTelemetry agent's client spans are.
   */
  private record Client(String libs, String app, String stream, List<String> fallingBack,
      List<String> againstTheLimit, int retries429, ClientSpans spans) {

    static Client of(String name) {
      return switch (name) {
        case "okhttp-3", "okhttp-4", "okhttp-5" -> new Client(name,
            "io.tollgate.agent.it.app.OkHttpApp", "stream", List.of("async"),
            List.of("sync", "async", "sync"), 0, ClientSpans.PER_ATTEMPT_AND_ANSWERED_WHEN_SECOND);
        case "jdk" -> new Client(null, "io.tollgate.agent.it.app.JdkHttpClientApp", "stream",
            List.of("async"), List.of("send", "async", "send"), 0, ClientSpans.PER_ATTEMPT);
        case "classic-4" -> new Client("apache-4", "io.tollgate.agent.it.app.ApacheClassic4App",
            "stream", List.of("sync"), List.of("sync", "open", "sync"), 0,
            ClientSpans.PER_APP_CALL_AROUND_TOLLGATE);
        case "classic-5" -> new Client("apache-5", "io.tollgate.agent.it.app.ApacheClassic5App",
            "stream", List.of("sync"), List.of("sync", "open", "sync"), 1,
            ClientSpans.PER_APP_CALL_AROUND_TOLLGATE);
        case "async-5" -> new Client("apache-5", "io.tollgate.agent.it.app.ApacheAsync5App",
            "stream", List.of("future"), List.of("future", "callback", "future"), 1,
            ClientSpans.PER_APP_CALL_APART);
        default -> throw new IllegalArgumentException(name);
      };
    }

    ForkedApp app(Path workDir) {
      return libs == null
          ? ForkedApp.launcher(workDir, ForkedApp.appClasses().toString(), app)
          : ForkedApp.client(libs, app, workDir);
    }
  }

  /**
   * Where the OpenTelemetry agent's client spans are, by where its instrumentation sits
   * (docs/agent.md, Limitations). The JDK client: Tollgate's hook is outside the OpenTelemetry
   * agent's in either order, each request sent gets its span under its attempt. Apache HttpClient:
   * the OpenTelemetry agent spans the app's call outside Tollgate's hook and suppresses the spans of
   * everything inside it, Tollgate's attempts included: one span per app call (the primary's URL,
   * the final status), around Tollgate's call (classic) or in a trace of its own (async, whose span
   * starts on the I/O thread). OkHttp: each request sent gets its span under its attempt; when the
   * OpenTelemetry agent attached second, its interceptor also sees the call Tollgate answered
   * itself, and spans it on its own (nothing was sent: the synthetic 429, in a trace of its own).
   */
  private enum ClientSpans {
    PER_ATTEMPT, PER_ATTEMPT_AND_ANSWERED_WHEN_SECOND, PER_APP_CALL_AROUND_TOLLGATE, PER_APP_CALL_APART
  }

  @ParameterizedTest(name = "{0}, OpenTelemetry agent {1}")
  @CsvSource({"okhttp-3, first", "okhttp-3, second", "okhttp-4, first", "okhttp-4, second",
      "okhttp-5, first", "okhttp-5, second", "jdk, first", "jdk, second",
      "classic-4, first", "classic-4, second", "classic-5, first", "classic-5, second",
      "async-5, first", "async-5, second"})
  void limitsFallsBackAndStreamsBesideTheOpenTelemetryAgent(String name, String otelPosition)
      throws Exception {
    Client client = Client.of(name);
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          telemetry:
            export: otlp
          providers:
            limited:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 2
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-day: 1000
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: ${BACKUP_KEY}
              model-map:
                gpt-4o: gpt-4o-mini
        """.formatted(limited.baseUrl(), primary.baseUrl(), backup.baseUrl()));
    int fallbacks = client.fallingBack().size();
    primary.script().next(1, Fault.none())
        .next(fallbacks * (1 + client.retries429()), Fault.rateLimited(Duration.ofSeconds(1)));

    ForkedApp app = client.app(dir.resolve("app"));
    String otel = "-javaagent:" + OtelJavaAgentIT.otelAgent().toAbsolutePath();
    if (otelPosition.equals("first")) {
      app.jvmOption(otel).withAgent("config=" + config);
    } else {
      app.withAgent("config=" + config).jvmOption(otel);
    }
    app.jvmOption("-Dotel.exporter.otlp.endpoint=" + receiver.endpoint())
        .jvmOption("-Dotel.exporter.otlp.protocol=http/protobuf")
        .jvmOption("-Dotel.bsp.schedule.delay=50")
        .jvmOption("-Dotel.metrics.exporter=none")
        .jvmOption("-Dotel.logs.exporter=none")
        .jvmOption("-Dotel.service.name=" + name + "-app")
        .env("APP_KEY", "app-key")
        .env("BACKUP_KEY", "backup-secret")
        .call(client.stream(), primary.baseUrl() + "/v1/chat/completions", STREAM);
    client.fallingBack().forEach(mode -> app.call(mode, primary.baseUrl() + "/v1/chat/completions", CHAT));
    client.againstTheLimit().forEach(mode -> app.call(mode, limited.baseUrl() + "/v1/chat/completions", CHAT));
    Run run = app.run();

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.completed()).as(run.toString()).isTrue();
    List<AppCall> calls = run.calls();
    assertThat(calls).as(run.toString()).hasSize(1 + fallbacks + 3);

    // the limit: exactly two of the three reach the provider, the third is Tollgate's 429
    List<AppCall> againstTheLimit = calls.subList(1 + fallbacks, calls.size());
    assertThat(againstTheLimit).extracting(AppCall::status)
        .as("%s\nrequests the limited provider received: %d", run, limited.requests().size())
        .containsExactly(200, 200, 429);
    isTheSyntheticRequestLimit(againstTheLimit.get(2));
    assertThat(limited.requests()).hasSize(2)
        .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));

    // the 429s from the primary: answered by the backup, with the backup's key and model
    for (AppCall fellBack : calls.subList(1, 1 + fallbacks)) {
      assertThat(fellBack.status()).as(run.toString()).isEqualTo(200);
      assertThat(JSON.readTree(fellBack.body()).path("model").asText()).isEqualTo("gpt-4o-mini");
    }
    assertThat(backup.requests()).hasSize(fallbacks).allSatisfy(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer backup-secret");
      assertThat(r.json().path("model").asText()).isEqualTo("gpt-4o-mini");
      assertThat(r.json().path("messages").get(0).path("content").asText())
          .isEqualTo("Say hello to both agents");
    });
    assertThat(primary.requests()).hasSize(1 + fallbacks * (1 + client.retries429()))
        .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));

    // the stream: the bytes the provider sends
    AppCall stream = calls.get(0);
    assertThat(stream.status()).isEqualTo(200);
    assertThat(stream.contentType()).startsWith("text/event-stream");
    assertThat(normalized(stream.body()))
        .isEqualTo(normalized(direct(primary.uri("/v1/chat/completions"), STREAM)));
    assertThat(stream.bodyText()).contains("\"usage\"").endsWith("data: [DONE]\n\n");

    // Spans. Tollgate's: the stream, each fallen-back call's two tries, the two admitted calls
    // as attempts; every app call as a call. The OpenTelemetry agent's client spans: as the
    // client's ClientSpans says, never two for one request.
    int appCalls = 1 + fallbacks + 3;
    int attemptsMade = 1 + 2 * fallbacks + 2;
    List<Span> attempts = await("tollgate.attempt", attemptsMade);
    await("tollgate.call", appCalls);
    Set<String> attemptIds = attempts.stream().map(s -> hex(s.getSpanId())).collect(Collectors.toSet());
    boolean answeredSpanned = client.spans() == ClientSpans.PER_ATTEMPT_AND_ANSWERED_WHEN_SECOND
        && otelPosition.equals("second");
    List<Span> clientSpans = awaitClientSpans(switch (client.spans()) {
      case PER_ATTEMPT -> attemptsMade;
      case PER_ATTEMPT_AND_ANSWERED_WHEN_SECOND -> attemptsMade + (answeredSpanned ? 1 : 0);
      case PER_APP_CALL_AROUND_TOLLGATE, PER_APP_CALL_APART -> appCalls;
    });
    List<String> callParents = named("tollgate.call").stream()
        .map(span -> hex(span.getParentSpanId())).toList();
    switch (client.spans()) {
      // each request on the wire: exactly one client span, under its attempt; none for the call
      // Tollgate answered itself
      case PER_ATTEMPT -> assertThat(clientSpans).as(summary()).hasSize(attemptsMade)
          .extracting(span -> hex(span.getParentSpanId()))
          .containsExactlyInAnyOrderElementsOf(attemptIds);
      case PER_ATTEMPT_AND_ANSWERED_WHEN_SECOND -> {
        List<Span> sent = clientSpans.stream()
            .filter(span -> attemptIds.contains(hex(span.getParentSpanId()))).toList();
        assertThat(sent).as(summary()).extracting(span -> hex(span.getParentSpanId()))
            .containsExactlyInAnyOrderElementsOf(attemptIds);
        List<Span> answered = clientSpans.stream().filter(span -> !sent.contains(span)).toList();
        assertThat(answered).as(summary()).hasSize(answeredSpanned ? 1 : 0)
            .allSatisfy(span -> {
              assertThat(span.getParentSpanId().isEmpty()).isTrue();
              assertThat(intAttribute(span, "server.port")).isEqualTo(limited.port());
              assertThat(intAttribute(span, "http.response.status_code")).isEqualTo(429);
            });
      }
      case PER_APP_CALL_AROUND_TOLLGATE -> assertThat(clientSpans).as(summary()).hasSize(appCalls)
          .extracting(span -> hex(span.getSpanId()))
          .containsExactlyInAnyOrderElementsOf(callParents);
      case PER_APP_CALL_APART -> {
        assertThat(clientSpans).as(summary()).hasSize(appCalls)
            .allSatisfy(span -> assertThat(span.getParentSpanId().isEmpty()).isTrue());
        assertThat(callParents).as(summary()).containsOnly("");
      }
    }

    List<String> ours = run.stderr().stream().filter(line -> !isOtelStartUpLine(line)).toList();
    assertThat(ours).as("nothing on stderr but the agents' start-up lines").hasSize(2);
    assertThat(ours.get(0)).startsWith("[tollgate] on:");
    // export: otlp starts no SDK of Tollgate's own beside the OpenTelemetry agent's (docs/telemetry.md)
    assertThat(ours.get(1)).isEqualTo("[tollgate] telemetry: recording into the OpenTelemetry Java"
        + " agent's GlobalOpenTelemetry; export: otlp starts no SDK of its own");
  }

  /**
   * The OpenTelemetry agent announces itself on stderr; and as it appends to the boot class path,
   * the JVM warns that class data sharing is restricted (a warning of the JVM's, not an error).
   */
  private static boolean isOtelStartUpLine(String line) {
    return line.equals("OpenJDK 64-Bit Server VM warning: Sharing is only supported for boot "
        + "loader classes because bootstrap classpath has been appended")
        || line.matches("\\[otel\\.javaagent [^\\]]+\\] \\[main\\] INFO io\\.opentelemetry\\.javaagent\\.tooling\\."
        + "VersionLogger - opentelemetry-javaagent - version: .+");
  }

  private static void isTheSyntheticRequestLimit(AppCall call) throws Exception {
    assertThat(call.retryAfter()).matches("\\d+");
    assertThat(call.contentType()).startsWith("application/json");
    JsonNode error = JSON.readTree(call.body()).path("error");
    assertThat(error.path("code").asText()).isEqualTo("rate_limit_exceeded");
    assertThat(error.path("type").asText()).isEqualTo("requests");
  }

  private List<Span> await(String name, int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline && named(name).size() < count) {
      Thread.sleep(20);
    }
    assertThat(named(name)).as("%s spans in\n%s", name, summary()).hasSize(count);
    return named(name);
  }

  private List<Span> awaitClientSpans(int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline && clientSpans().size() < count) {
      Thread.sleep(20);
    }
    return clientSpans();
  }

  /** The OpenTelemetry agent's HTTP client spans of requests to the providers. */
  private List<Span> clientSpans() {
    Set<Long> ports = Set.of((long) limited.port(), (long) primary.port(), (long) backup.port());
    return receiver.spans().stream()
        .filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_CLIENT)
        .filter(s -> s.getAttributesList().stream().anyMatch(kv -> kv.getKey().equals("server.port")
            && ports.contains(kv.getValue().getIntValue())))
        .toList();
  }

  /** One line per span received: name, kind, id, parent, URL and status. */
  private String summary() {
    return receiver.spans().stream().map(s -> s.getName() + " " + s.getKind() + " "
        + hex(s.getSpanId()) + " <- " + hex(s.getParentSpanId()) + " " + s.getAttributesList().stream()
            .filter(kv -> kv.getKey().equals("url.full") || kv.getKey().equals("server.port")
                || kv.getKey().equals("http.response.status_code"))
            .map(kv -> kv.getValue().toString().trim()).collect(Collectors.joining(" ")))
        .collect(Collectors.joining("\n"));
  }

  private List<Span> named(String name) {
    return receiver.spans().stream().filter(s -> s.getName().equals(name)).toList();
  }

  private static long intAttribute(Span span, String key) {
    return span.getAttributesList().stream().filter(kv -> kv.getKey().equals(key))
        .mapToLong(kv -> kv.getValue().getIntValue()).findFirst().orElse(-1);
  }

  private static String hex(ByteString bytes) {
    return HexFormat.of().formatHex(bytes.toByteArray());
  }

  /** The same call made without either agent. */
  private static byte[] direct(URI uri, String json) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(uri)
        .version(HttpClient.Version.HTTP_1_1)
        .header("Authorization", "Bearer app-key")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray()).body();
  }

  /** The mock numbers each completion and stamps it with the second it was made. */
  private static String normalized(byte[] body) {
    return new String(body, StandardCharsets.UTF_8)
        .replaceAll("\"id\":\"chatcmpl-mock-\\d+\"", "\"id\":\"ID\"")
        .replaceAll("\"created\":\\d+", "\"created\":0");
  }
}
