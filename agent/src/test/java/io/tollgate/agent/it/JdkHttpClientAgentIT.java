package io.tollgate.agent.it;

import static io.tollgate.agent.HelperConfigs.primaryLimitedTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import io.tollgate.testkit.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An unmodified app on the JDK's {@code java.net.http.HttpClient} ({@code JdkHttpClientApp}) under
 * {@code -javaagent:tollgate-agent.jar}, against real Redis and mock providers, over HTTP/1.1 and
 * HTTP/2 (h2c).
 */
class JdkHttpClientAgentIT {

  @AutoClose static final RedisServer redis = RedisServer.start();
  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();
  /** On the providers' host, another port: watched host, but no provider's. */
  @AutoClose static final MockLlmServer elsewhere = MockLlmServer.start();

  private static final String APP = "io.tollgate.agent.it.app.JdkHttpClientApp";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the agent\"}]}";
  private static final String STREAM = "{\"model\":\"gpt-4o\",\"max_tokens\":500,\"stream\":true,"
      + "\"stream_options\":{\"include_usage\":true},"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Stream a hello\"}]}";

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    redis.flushAll();
    primary.reset();
    backup.reset();
    elsewhere.reset();
  }

  @ParameterizedTest(name = "HTTP/{0}")
  @ValueSource(strings = {"1.1", "2"})
  void leavesOtherCallsAloneStreamsAndSettlesAndFallsBackWithTheFallbacksOwnKey(String http)
      throws Exception {
    Path config = write("tollgate.yaml", """
        tollgate:
          redis:
            url: %s
            timeout: 2s # a cold forked JVM's first calls may be slow; a timeout would fail open
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-day: 1000
                tokens-per-day: 10000
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: ${BACKUP_KEY}
              model-map:
                gpt-4o: gpt-4o-mini
        """.formatted(redis.uri(), primary.baseUrl(), backup.baseUrl()));
    primary.usage(12, 20);
    // two streams succeed; the next call is refused upstream and must go to the backup
    primary.script().next(2, Fault.none()).next(1, Fault.rateLimited(Duration.ofSeconds(1)));

    Run run = app("app")
        .jvmOption("-Dapp.http=" + http)
        .withAgent("config=" + config)
        .env("APP_KEY", "app-key")
        .env("BACKUP_KEY", "backup-secret")
        .call("send", elsewhere.baseUrl() + "/v1/models", null)
        // bodiless: over HTTP/2 this opens the h2c connection the calls below share
        .call("send", primary.baseUrl() + "/v1/models", null)
        .call("stream", primary.baseUrl() + "/v1/chat/completions", STREAM)
        .call("lines", primary.baseUrl() + "/v1/chat/completions", STREAM)
        .call("send", primary.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).as("nothing on the app's stderr but the start-up line")
        .singleElement().asString().startsWith("[tollgate] on:").contains("jdk-httpclient");
    List<AppCall> calls = run.calls();
    assertThat(calls).as(run.toString()).hasSize(5);
    String version = http.equals("2") ? "HTTP_2" : "HTTP_1_1";
    assertThat(run.stdout()).as("the versions the app saw")
        .contains("version 1 " + version, "version 2 " + version, "version 3 " + version,
            "version 4 " + version, "version 5 HTTP_1_1");

    // 1. another host: byte-identical, sent as the app wrote it
    AppCall models = calls.get(0);
    assertThat(models.status()).isEqualTo(200);
    assertThat(elsewhere.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
    assertThat(models.body()).isEqualTo(direct("GET", elsewhere.uri("/v1/models"), null));

    // 2. the streams (InputStream read in small chunks; lines): the bytes the provider sent
    byte[] sent = direct("POST", primary.uri("/v1/chat/completions"), STREAM);
    for (AppCall stream : List.of(calls.get(2), calls.get(3))) {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.contentType()).startsWith("text/event-stream");
      assertThat(normalized(stream.body())).isEqualTo(normalized(sent));
      assertThat(stream.bodyText()).contains("\"usage\"").endsWith("data: [DONE]\n\n");
    }

    // 3. 429 upstream: answered by the backup, with the backup's key and model
    AppCall fellBack = calls.get(4);
    assertThat(fellBack.status()).isEqualTo(200);
    assertThat(JSON.readTree(fellBack.body()).path("model").asText()).isEqualTo("gpt-4o-mini");
    List<RecordedRequest> atPrimary = primary.requests();
    assertThat(atPrimary).extracting(RecordedRequest::method, RecordedRequest::path)
        .containsExactly(tuple("GET", "/v1/models"), tuple("POST", "/v1/chat/completions"),
            tuple("POST", "/v1/chat/completions"), tuple("POST", "/v1/chat/completions"),
            tuple("POST", "/v1/chat/completions")); // the last one: our direct call
    assertThat(atPrimary).allSatisfy(r ->
        assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
    assertThat(atPrimary.subList(0, 4)).as("the app's calls, in the version it asked for")
        .extracting(RecordedRequest::httpVersion)
        .containsOnly(http.equals("2") ? "HTTP/2.0" : "HTTP/1.1");
    assertThat(backup.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer backup-secret");
      assertThat(r.json().path("model").asText()).isEqualTo("gpt-4o-mini");
      assertThat(r.json().path("messages").get(0).path("content").asText())
          .isEqualTo("Say hello to the agent");
    });

    // The account: three requests (the model list and the two streams; the refused call was
    // given back, the other host never counted), and the streams' real 2 x 32 tokens, not their
    // estimates of 500+ each.
    Decision account = peek(config, "primary");
    assertThat(account.remainingRequests()).isEqualTo(997);
    long tokensUsed = 10_000 - account.remainingTokens() - 1;
    assertThat(tokensUsed).as("tokens charged (refill of ~0.12/s aside)").isBetween(64L - 10, 64L);
  }

  @Test
  void enforcesOneLimitAcrossTwoJvmsSharingRedis() throws Exception {
    Path config = write("tollgate.yaml", """
        tollgate:
          redis:
            url: %s
            timeout: 2s # a cold forked JVM's first calls may be slow; a timeout would fail open
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 5
        """.formatted(redis.uri(), primary.baseUrl()));
    String url = primary.baseUrl() + "/v1/chat/completions";
    ForkedApp sending = app("send").withAgent("config=" + config);
    ForkedApp submitting = app("async").jvmOption("-Dapp.http=2").withAgent("config=" + config);
    for (int i = 0; i < 4; i++) {
      sending.call("send", url, CHAT);
      submitting.call("async", url, CHAT);
    }
    List<AppCall> calls = ForkedApp.callsOf(ForkedApp.runTogether(sending, submitting));
    assertThat(calls).hasSize(8);
    assertThat(calls).filteredOn(c -> c.status() == 200).hasSize(5);
    assertThat(calls).filteredOn(c -> c.status() == 429).hasSize(3)
        .allSatisfy(JdkHttpClientAgentIT::isTheSyntheticRequestLimit);
    assertThat(primary.requestCount()).isEqualTo(5);
  }

  @Test
  void answersALimitedCallThroughEachBodyHandlerAsTheProviderWould() throws Exception {
    Path config = write("tollgate.yaml", primaryLimitedTo(primary.baseUrl(), "requests-per-hour: 1"));
    String url = primary.baseUrl() + "/v1/chat/completions";

    Run run = app("app").withAgent("config=" + config)
        .call("send", url, CHAT)
        .call("send", url, CHAT)
        .call("stream", url, CHAT)
        .call("async", url, CHAT)
        .call("lines", url, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).singleElement().asString().startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::mode, AppCall::status).containsExactly(
        tuple("send", 200), tuple("send", 429), tuple("stream", 429), tuple("async", 429),
        tuple("lines", 429));
    List<AppCall> limited = run.calls().subList(1, 5);
    assertThat(limited).allSatisfy(JdkHttpClientAgentIT::isTheSyntheticRequestLimit);
    String body = withoutWaitTime(limited.get(0).bodyText());
    assertThat(limited).extracting(call -> withoutWaitTime(call.bodyText()))
        .as("the same body, whichever handler converted it (lines: one line)")
        .containsExactly(body, body, body, body + "\n");
    assertThat(primary.requestCount()).isEqualTo(1);
  }

  @Test
  void failsAsTheClientItselfWouldWhenNoProviderAnswers() throws Exception {
    // a privileged port nothing listens on: a freed ephemeral port could be taken meanwhile
    int closedPort = 1;
    String url = "http://127.0.0.1:" + closedPort + "/v1/chat/completions";
    Path config = write("tollgate.yaml", """
        tollgate:
          providers:
            primary:
              base-url: http://127.0.0.1:%d
              api: openai
              limits:
                requests-per-hour: 10
        """.formatted(closedPort));

    Run without = app("without").call("send", url, CHAT).call("async", url, CHAT).run();
    Run with = app("with").withAgent("config=" + config).call("send", url, CHAT)
        .call("async", url, CHAT).run();

    assertThat(with.completed()).as(with.toString()).isTrue();
    assertThat(with.stderr()).singleElement().asString().startsWith("[tollgate] on:");
    List<String> failures = without.stdout().stream().filter(l -> l.startsWith("call ")).toList();
    assertThat(failures).containsExactly("call 1 send failed=java.net.ConnectException",
        "call 2 async failed=java.net.ConnectException");
    assertThat(with.stdout()).filteredOn(l -> l.startsWith("call "))
        .as("thrown by send, and the failed future of sendAsync, as without the agent")
        .containsExactlyElementsOf(failures);
  }

  @Test
  void waitsForRoomWithoutHoldingTheThreadThatCalledSendAsync() throws Exception {
    Path config = write("tollgate.yaml", """
        tollgate:
          on-limit: wait
          max-wait: 8s
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-second: 1
        """.formatted(primary.baseUrl()));
    String url = primary.baseUrl() + "/v1/chat/completions";

    Run run = app("app").withAgent("config=" + config)
        .call("send", url, CHAT)
        .call("send", url, CHAT)
        .call("async", url, CHAT)
        .call("async", url, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status)
        .as("every call waits for its turn, none is refused").containsExactly(200, 200, 200, 200);
    List<RecordedRequest> arrived = primary.awaitRequests(4, Duration.ofSeconds(5));
    // admitted a second apart; a slow first send (a loaded machine) may shorten one gap between
    // arrivals, not the span of all four
    assertThat(Duration.between(arrived.get(0).arrivedAt(), arrived.get(3).arrivedAt()))
        .as("four requests at one a second").isGreaterThan(Duration.ofSeconds(2));
    assertThat(submittedAt(run, 4))
        .as("both sendAsync calls returned at once: the waits did not hold the app's thread")
        .isBefore(arrived.get(2).arrivedAt());
  }

  @Test
  void attachedToARunningAppLimitsTheClientsItAlreadyHas() throws Exception {
    Path config = write("tollgate.yaml", primaryLimitedTo(primary.baseUrl(), "requests-per-hour: 1"));

    Run run = ForkedApp.launcher(dir.resolve("run"), ForkedApp.appClasses().toString(),
            "io.tollgate.agent.it.app.JdkLateAttachApp",
            ForkedApp.agentJar().toAbsolutePath().toString(), "config=" + config,
            primary.baseUrl() + "/v1/chat/completions", CHAT)
        .jvmOption("-Djdk.attach.allowAttachSelf=true")
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.tollgateLines()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::mode, AppCall::status)
        .as("the client already in use is limited from the attach on (one request an hour)")
        .containsExactly(tuple("before", 200), tuple("after", 200), tuple("after", 429));
    assertThat(run.calls().get(2).retryAfter()).matches("\\d+");
    assertThat(primary.requestCount()).isEqualTo(2);
  }

  private ForkedApp app(String name) {
    return ForkedApp.launcher(dir.resolve(name), ForkedApp.appClasses().toString(), APP);
  }

  private static void isTheSyntheticRequestLimit(AppCall call) {
    assertThat(call.retryAfter()).matches("\\d+");
    assertThat(call.contentType()).startsWith("application/json");
    JsonNode error;
    try {
      error = JSON.readTree(call.body()).path("error");
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + call.bodyText(), e);
    }
    assertThat(error.path("code").asText()).isEqualTo("rate_limit_exceeded");
    assertThat(error.path("type").asText()).isEqualTo("requests");
    assertThat(error.path("message").asText()).isNotBlank();
  }

  /** The message says how long to wait, to the millisecond. */
  private static String withoutWaitTime(String body) {
    return body.replaceAll("try again in [^ ]+ \\(Tollgate\\)", "try again in T (Tollgate)");
  }

  private static Instant submittedAt(Run run, int call) {
    String prefix = "submitted " + call + " at ";
    return run.stdout().stream().filter(line -> line.startsWith(prefix))
        .map(line -> Instant.ofEpochMilli(Long.parseLong(line.substring(prefix.length()))))
        .findFirst().orElseThrow(() -> new AssertionError("no line " + prefix + " in " + run));
  }

  /** The provider's account in Redis, read by charging one token. */
  private static Decision peek(Path config, String provider) {
    TollgateConfig parsed = TollgateConfigLoader.builder()
        .environment(Map.of("BACKUP_KEY", "x")).build().load(config);
    Limits limits = parsed.provider(provider).orElseThrow().limits().toLimits();
    try (RedisConnection connection = RedisConnection.standalone(redis.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(1).build()) {
      return RateLimiter.redis(connection).reserve(Subject.of("provider", provider), limits, 0, 1);
    }
  }

  /** The same call made without the agent. */
  private static byte[] direct(String method, URI uri, String json) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri)
        .version(HttpClient.Version.HTTP_1_1)
        .header("Authorization", "Bearer app-key");
    if (json != null) {
      request.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(json));
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofByteArray()).body();
  }

  /** The mock numbers each completion and stamps it with the second it was made. */
  private static String normalized(byte[] body) {
    return new String(body, StandardCharsets.UTF_8)
        .replaceAll("\"id\":\"chatcmpl-mock-\\d+\"", "\"id\":\"ID\"")
        .replaceAll("\"created\":\\d+", "\"created\":0");
  }

  private Path write(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }
}
