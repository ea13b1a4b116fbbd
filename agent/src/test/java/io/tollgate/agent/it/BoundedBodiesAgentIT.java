package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.agent.it.app.GeneratedChat;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code tokens.max-buffered-body} in unmodified apps under the agent: a body of undeclared
 * length far larger than the bound reaches the provider byte for byte from an app whose heap
 * could not hold it twice, charged by its size; a failed response larger than the bound reaches
 * the app as the provider sent it, and no fallback is tried.
 */
class BoundedBodiesAgentIT {

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();

  /** 20,000,000 bytes: the app's 64 MB heap cannot hold them the three times buffering took. */
  private static final long SIZE = 20_000_000;
  /** The bound in the tests below: 64 KiB. */
  private static final int BOUND = 64 * 1024;
  private static final String LARGE_BODY_APP = "io.tollgate.agent.it.app.LargeBodyApp";
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the agent\"}]}";

  @TempDir Path dir;
  @AutoClose OtlpReceiver receiver;

  @BeforeEach
  void reset() {
    primary.reset();
    backup.reset();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"okhttp", "jdk", "apache4", "apache5"})
  void aBodyOfUnknownLengthPastTheBoundStreamsUnchangedAndIsChargedByItsSize(String client)
      throws Exception {
    receiver = OtlpReceiver.start();
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          telemetry:
            export: otlp
          tokens:
            max-buffered-body: 64KB
          providers:
            primary:
              base-url: %s
              limits:
                tokens-per-day: 100000000
        """.formatted(primary.baseUrl()));
    // an answer without usage: the settle is Tollgate's own estimate, from every byte sent
    primary.script().next(1, Fault.malformedJson());

    Run run = app(client)
        .withAgent("config=" + config)
        .jvmOption("-Xmx64m")
        .jvmOption("-Dotel.exporter.otlp.endpoint=" + receiver.endpoint())
        .jvmOption("-Dotel.bsp.schedule.delay=50")
        .jvmOption("-Dotel.metric.export.interval=600000")
        .argument(client)
        .argument(primary.baseUrl() + "/v1/chat/completions")
        .argument(Long.toString(SIZE))
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).singleElement().satisfies(call -> {
      assertThat(call.status()).isEqualTo(200);
      assertThat(call.body()).isEqualTo(Fault.malformedJson().body());
    });
    RecordedRequest sent = primary.requests().get(0);
    assertThat(primary.requests()).hasSize(1);
    assertThat(sent.body()).as("every byte, once").hasSize((int) SIZE);
    assertThat(sha256(sent.body())).isEqualTo(sha256(new GeneratedChat(SIZE)));

    Map<String, String> call = attributes(awaitSpan("tollgate.call"));
    assertThat(call).containsEntry("gen_ai.request.model", GeneratedChat.MODEL);
    assertThat(call.get("tollgate.tokens.reserved"))
        .as("the bound + 1 bytes read before sending, / 4 rounded up, and max_tokens")
        .isEqualTo(Long.toString((BOUND + 1 + 3) / 4 + GeneratedChat.MAX_TOKENS));
    assertThat(call.get("tollgate.tokens.settled"))
        .as("every byte sent, / 4 rounded up, and max_tokens")
        .isEqualTo(Long.toString((SIZE + 3) / 4 + GeneratedChat.MAX_TOKENS));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"okhttp", "apache4", "apache5"})
  void aFailedResponsePastTheBoundReachesTheAppUnchangedAndNoFallbackIsTried(String client)
      throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          tokens:
            max-buffered-body: 1KB
          providers:
            primary:
              base-url: %s
              limits:
                requests-per-day: 1000
              fallbacks: [backup]
            backup:
              base-url: %s
              api-key: backup-secret
        """.formatted(primary.baseUrl(), backup.baseUrl()));
    String error = "{\"error\":{\"message\":\"" + "The server had an error. ".repeat(200)
        + "\",\"type\":\"server_error\",\"param\":null,\"code\":null}}";
    primary.script().next(1, Fault.status(500, error));

    Run run = smallChatApp(client).withAgent("config=" + config)
        .call("sync", primary.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    AppCall call = run.calls().get(0);
    assertThat(call.status()).isEqualTo(500);
    assertThat(call.bodyText()).as("the provider's own %s bytes", error.length()).isEqualTo(error);
    assertThat(backup.requestCount()).as("a failure not held cannot be replaced").isZero();
    assertThat(run.tollgateLines()).noneMatch(line -> line.contains("internal failure"));
  }

  /** {@link io.tollgate.agent.it.app.LargeBodyApp} on the class path of {@code client} alone. */
  private ForkedApp app(String client) {
    Path workDir = dir.resolve("app");
    return switch (client) {
      case "okhttp" -> ForkedApp.okhttp("4", workDir).mainClass(LARGE_BODY_APP);
      case "apache4" -> ForkedApp.client("apache-4", LARGE_BODY_APP, workDir);
      case "apache5" -> ForkedApp.client("apache-5", LARGE_BODY_APP, workDir);
      default -> ForkedApp.launcher(workDir, ForkedApp.appClasses().toString(), LARGE_BODY_APP);
    };
  }

  private ForkedApp smallChatApp(String client) {
    Path workDir = dir.resolve("app");
    return switch (client) {
      case "okhttp" -> ForkedApp.okhttp("4", workDir);
      case "apache4" -> ForkedApp.client("apache-4", "io.tollgate.agent.it.app.ApacheClassic4App", workDir);
      default -> ForkedApp.client("apache-5", "io.tollgate.agent.it.app.ApacheClassic5App", workDir);
    };
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

  private static Map<String, String> attributes(Span span) {
    return span.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey,
        kv -> kv.getValue().hasStringValue() ? kv.getValue().getStringValue()
            : kv.getValue().hasIntValue() ? Long.toString(kv.getValue().getIntValue())
            : kv.getValue().toString()));
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  private static String sha256(InputStream in) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    byte[] chunk = new byte[64 * 1024];
    try (in) {
      for (int n; (n = in.read(chunk)) != -1; ) {
        digest.update(chunk, 0, n);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }
}
