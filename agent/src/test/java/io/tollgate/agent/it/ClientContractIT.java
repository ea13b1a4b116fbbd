package io.tollgate.agent.it;

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
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every client the agent instruments must do, written once: an unmodified app on the client,
 * forked under {@code -javaagent:tollgate-agent.jar}, against real Redis and mock providers. Each
 * client runs it through a subclass that says which app to fork on which jars ({@link #app}) and
 * which of the app's modes make its calls ({@link #read}, {@link #readOtherwise},
 * {@link #streams}); every app takes the same arguments ({@code MODE URL JSON|-}, repeated) and
 * prints each call in the same line ({@link ForkedApp.AppCall}). What only one client does is
 * tested beside it ({@code OkHttpAgentIT}, {@code JdkHttpClientAgentIT},
 * {@code ApacheHttpClientAgentIT}).
 */
// one Redis and one set of providers per client's class, closed when it ends
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ClientContractIT {

  @AutoClose final RedisServer redis = RedisServer.start();
  @AutoClose final MockLlmServer primary = MockLlmServer.start();
  @AutoClose final MockLlmServer backup = MockLlmServer.start();
  /** On the providers' host, another port: watched host, but no provider's. */
  @AutoClose final MockLlmServer elsewhere = MockLlmServer.start();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the agent\"}]}";
  private static final String STREAM = "{\"model\":\"gpt-4o\",\"max_tokens\":500,\"stream\":true,"
      + "\"stream_options\":{\"include_usage\":true},"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Stream a hello\"}]}";
  /** The mock's usage for every completion: 12 prompt tokens and 20 completion tokens. */
  private static final long USAGE = 32;

  /** This test's own folder (the configuration, each app's output). */
  private Path dir;

  /** This client's app, forked with its output in {@code workDir}; the agent is added after. */
  abstract ForkedApp app(Path workDir);

  /** The app's mode for the client's plainest call, the whole answer read at once. */
  abstract String read();

  /**
   * Another way the app calls through this client (its async API, a response read outside a
   * handler).
   */
  abstract String readOtherwise();

  /** The name the agent's start-up line gives this client's instrumentation. */
  abstract String instrumentation();

  /** The app's modes that read a streamed answer as it arrives, in small pieces. */
  List<String> streams() {
    return List.of("stream");
  }

  /**
   * How often the client itself re-sends a provider's 429 before Tollgate sees the answer
   * (HttpClient 5's default retry strategy does once, after the response's {@code Retry-After}).
   */
  int retriesOf429() {
    return 0;
  }

  /**
   * What else the run that streams and falls back must show for this client ({@code appsRequests}:
   * the app's own requests at the primary, in order); nothing by default.
   */
  void alsoShows(Run run, List<RecordedRequest> appsRequests) {}

  @BeforeEach
  void reset(@TempDir Path dir) {
    this.dir = dir;
    redis.flushAll();
    primary.reset();
    backup.reset();
    elsewhere.reset();
  }

  @Test
  void leavesOtherCallsAloneStreamsAndSettlesAndFallsBackWithTheFallbacksOwnKey() throws Exception {
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
    // the streams succeed; the next call is refused upstream (and so is each of the client's own
    // re-sends of it) and must go to the backup
    List<String> streams = streams();
    primary.script().next(streams.size(), Fault.none())
        .next(1 + retriesOf429(), Fault.rateLimited(Duration.ofSeconds(1)));

    ForkedApp app = app(dir.resolve("app"))
        .withAgent("config=" + config)
        .env("APP_KEY", "app-key")
        .env("BACKUP_KEY", "backup-secret")
        .call(read(), elsewhere.baseUrl() + "/v1/models", null)
        // bodiless: over HTTP/2 this opens the h2c connection the calls below share
        .call(read(), primary.baseUrl() + "/v1/models", null);
    for (String stream : streams) {
      app.call(stream, primary.baseUrl() + "/v1/chat/completions", STREAM);
    }
    Run run = app.call(read(), primary.baseUrl() + "/v1/chat/completions", CHAT).run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).as("nothing on the app's stderr but the start-up line")
        .singleElement().asString().startsWith("[tollgate] on:").contains(instrumentation());
    List<AppCall> calls = run.calls();
    assertThat(calls).as(run.toString()).hasSize(2 + streams.size() + 1);

    // 1. another host: byte-identical, sent as the app wrote it, not counted
    AppCall models = calls.get(0);
    assertThat(models.status()).isEqualTo(200);
    assertThat(elsewhere.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
    assertThat(models.body()).isEqualTo(direct("GET", elsewhere.uri("/v1/models"), null));

    // 2. the provider's model list, and the streams: the bytes the provider sent
    assertThat(calls.get(1).status()).isEqualTo(200);
    byte[] sent = direct("POST", primary.uri("/v1/chat/completions"), STREAM);
    for (AppCall stream : calls.subList(2, 2 + streams.size())) {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.contentType()).startsWith("text/event-stream");
      assertThat(normalized(stream.body())).isEqualTo(normalized(sent));
      assertThat(stream.bodyText()).contains("\"usage\"").endsWith("data: [DONE]\n\n");
    }

    // 3. 429 upstream: answered by the backup, with its key and model and the app's prompt
    AppCall fellBack = calls.get(calls.size() - 1);
    assertThat(fellBack.status()).isEqualTo(200);
    assertThat(JSON.readTree(fellBack.body()).path("model").asText()).isEqualTo("gpt-4o-mini");
    List<RecordedRequest> atPrimary = primary.requests();
    List<Tuple> expected = new ArrayList<>(List.of(tuple("GET", "/v1/models")));
    // the streams, the refused call and the client's own re-sends of it, and our direct stream
    expected.addAll(Collections.nCopies(streams.size() + 1 + retriesOf429() + 1,
        tuple("POST", "/v1/chat/completions")));
    assertThat(atPrimary).extracting(RecordedRequest::method, RecordedRequest::path)
        .containsExactlyElementsOf(expected);
    assertThat(atPrimary).allSatisfy(r ->
        assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
    assertThat(backup.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer backup-secret");
      assertThat(r.json().path("model").asText()).isEqualTo("gpt-4o-mini");
      assertThat(r.json().path("messages").get(0).path("content").asText())
          .isEqualTo("Say hello to the agent");
    });
    alsoShows(run, atPrimary.subList(0, atPrimary.size() - 1));

    // The account: the model list and the streams (the refused call was given back, the other
    // host never counted), and the streams' real usage, not their estimates of 500+ each.
    Decision account = peek(config, "primary");
    assertThat(account.remainingRequests()).isEqualTo(1000 - 1 - streams.size());
    long tokensUsed = 10_000 - account.remainingTokens() - 1;
    long settled = USAGE * streams.size();
    assertThat(tokensUsed).as("tokens charged (refill of ~0.12/s aside)")
        .isBetween(settled - 10, settled);
  }

  @Test
  void enforcesOneLimitAcrossTwoJvmsSharingRedisAndAnswersTheRestWithTheProvidersOwn429()
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
                requests-per-hour: 5
        """.formatted(redis.uri(), primary.baseUrl()));
    String url = primary.baseUrl() + "/v1/chat/completions";
    ForkedApp one = app(dir.resolve("one"))
        .withAgent("config=" + config).calls(4, read(), url, CHAT);
    ForkedApp other = app(dir.resolve("other")).withAgent("config=" + config)
        .calls(4, readOtherwise(), url, CHAT);

    List<Run> runs = ForkedApp.runTogether(one, other);

    List<AppCall> calls = ForkedApp.callsOf(runs);
    assertThat(calls).as("%s", runs).hasSize(8);
    assertThat(calls).as("%s", runs).filteredOn(c -> c.status() == 200).hasSize(5);
    assertThat(calls).filteredOn(c -> c.status() == 429).hasSize(3)
        .allSatisfy(ClientContractIT::isTheSyntheticRequestLimit);
    assertThat(primary.requestCount()).isEqualTo(5);
  }

  @Test
  void waitsForRoomWithoutFailingTheCall() throws Exception {
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
    // The same server by another name, which no provider has: warms the app's client (a cold
    // JVM's first request can take longer than a wait) without spending the limit.
    String warmUp = "http://localhost:" + primary.port() + "/v1/models";

    Run run = app(dir.resolve("app"))
        .withAgent("config=" + config)
        .call(read(), warmUp, null)
        .calls(4, read(), url, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status)
        .as("every call waits for its turn (on the app's thread, or resumed when there is room "
            + "with no thread held meanwhile), none is refused")
        .containsExactly(200, 200, 200, 200, 200);
    List<RecordedRequest> arrived = primary.requests().stream()
        .filter(r -> r.path().equals("/v1/chat/completions")).toList();
    assertThat(arrived).hasSize(4);
    // admitted a second apart; a slow first send (a loaded machine) may shorten one gap between
    // arrivals, not the span of all four
    assertThat(Duration.between(arrived.get(0).arrivedAt(), arrived.get(3).arrivedAt()))
        .as("four requests at one a second").isGreaterThan(Duration.ofSeconds(2));
  }

  /** Tollgate's own 429 for the requests limit, as the app's client handed it over. */
  static void isTheSyntheticRequestLimit(AppCall call) {
    assertThat(call.retryAfter()).matches("\\d+");
    assertThat(call.contentType()).startsWith("application/json");
    JsonNode error;
    try {
      error = JSON.readTree(call.body()).path("error");
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + call.bodyText(), e);
    }
    assertThat(error.path("code").asText()).isEqualTo("rate_limit_exceeded");
    assertThat(error.path("type").asText()).isEqualTo("requests");
    assertThat(error.path("message").asText()).isNotBlank();
  }

  /** The provider's account in Redis, read by charging one token. */
  private Decision peek(Path config, String provider) {
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
    return HttpClient.newHttpClient()
        .send(request.build(), HttpResponse.BodyHandlers.ofByteArray()).body();
  }

  /** The mock numbers each completion and stamps it with the second it was made. */
  private static String normalized(byte[] body) {
    return new String(body, StandardCharsets.UTF_8)
        .replaceAll("\"id\":\"chatcmpl-mock-\\d+\"", "\"id\":\"ID\"")
        .replaceAll("\"created\":\\d+", "\"created\":0");
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }
}
