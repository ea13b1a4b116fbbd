package io.tollgate.agent.it;

import static io.tollgate.agent.HelperConfigs.primaryLimitedTo;
import static org.assertj.core.api.Assertions.assertThat;

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
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.ProviderApi;
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
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * An unmodified Apache HttpClient app under {@code -javaagent:tollgate-agent.jar}, once per client
 * line, against real Redis and mock providers.
 */
class ApacheHttpClientAgentIT {

  @AutoClose static final RedisServer redis = RedisServer.start();
  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();
  /** On the providers' host, another port: watched host, but no provider's. */
  @AutoClose static final MockLlmServer elsewhere = MockLlmServer.start();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the agent\"}]}";
  private static final String STREAM = "{\"model\":\"gpt-4o\",\"max_tokens\":500,\"stream\":true,"
      + "\"stream_options\":{\"include_usage\":true},"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Stream a hello\"}]}";

  /**
   * The Redis timeout is raised from its 100 ms default in the configurations below: a forked JVM's
   * first calls on a loaded machine can take longer, and a timeout would fail open (admit locally),
   * which is not what these tests are about.
   */
  @TempDir Path dir;

  @BeforeEach
  void reset() {
    redis.flushAll();
    primary.reset();
    backup.reset();
    elsewhere.reset();
  }

  /**
   * The app of a client line, the two ways it reads a whole answer, and how often the client
   * itself re-sends a 429 before Tollgate sees it (HttpClient 5's default retry strategy does
   * once, after the response's {@code Retry-After}; 4.5 never does).
   */
  private record Line(String libs, String app, String read, String readOtherwise, int retries429) {
    static Line of(String name) {
      return switch (name) {
        case "classic-5" -> new Line("apache-5", "io.tollgate.agent.it.app.ApacheClassic5App",
            "sync", "open", 1);
        case "classic-4" -> new Line("apache-4", "io.tollgate.agent.it.app.ApacheClassic4App",
            "sync", "open", 0);
        case "async-5" -> new Line("apache-5", "io.tollgate.agent.it.app.ApacheAsync5App",
            "future", "callback", 1);
        // the oldest release supported, the one the helpers are compiled against
        case "classic-5.1" -> new Line("apache-5-oldest",
            "io.tollgate.agent.it.app.ApacheClassic5App", "sync", "open", 1);
        case "async-5.1" -> new Line("apache-5-oldest",
            "io.tollgate.agent.it.app.ApacheAsync5App", "future", "callback", 1);
        default -> throw new IllegalArgumentException(name);
      };
    }

    ForkedApp app(Path workDir) {
      return ForkedApp.client(libs, app, workDir);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"classic-5", "classic-4", "async-5", "classic-5.1", "async-5.1"})
  void leavesOtherCallsAloneStreamsAndSettlesAndFallsBackWithTheFallbacksOwnKey(String name)
      throws Exception {
    Line line = Line.of(name);
    Path config = write("tollgate.yaml", """
        tollgate:
          redis:
            url: %s
            timeout: 2s
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-day: 1000
                tokens-per-day: 100000
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: ${BACKUP_KEY}
              model-map:
                gpt-4o: gpt-4o-mini
        """.formatted(redis.uri(), primary.baseUrl(), backup.baseUrl()));
    primary.usage(12, 20);
    // the stream succeeds; the next call is refused upstream and must go to the backup
    primary.script().next(1, Fault.none())
        .next(1 + line.retries429(), Fault.rateLimited(Duration.ofSeconds(1)));

    Run run = line.app(dir.resolve("app"))
        .withAgent("config=" + config)
        .env("APP_KEY", "app-key")
        .env("BACKUP_KEY", "backup-secret")
        .call(line.read(), elsewhere.baseUrl() + "/v1/models", null)
        .call("stream", primary.baseUrl() + "/v1/chat/completions", STREAM)
        .call(line.read(), primary.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).as("nothing on the app's stderr but the start-up line")
        .singleElement().asString().startsWith("[tollgate] on:");
    List<AppCall> calls = run.calls();
    assertThat(calls).as(run.toString()).hasSize(3);

    // 1. another host: byte-identical, sent as the app wrote it, not counted
    AppCall models = calls.get(0);
    assertThat(models.status()).isEqualTo(200);
    assertThat(models.body()).isEqualTo(direct("GET", elsewhere.uri("/v1/models"), null));
    assertThat(elsewhere.requests().get(0).header("authorization")).isEqualTo("Bearer app-key");

    // 2. the stream: the bytes the provider sent, and its real usage settled
    AppCall stream = calls.get(1);
    assertThat(stream.status()).isEqualTo(200);
    assertThat(stream.contentType()).startsWith("text/event-stream");
    byte[] sent = direct("POST", primary.uri("/v1/chat/completions"), STREAM);
    assertThat(normalized(stream.body())).isEqualTo(normalized(sent));
    assertThat(stream.bodyText()).contains("\"usage\"").endsWith("data: [DONE]\n\n");

    // 3. 429 upstream: answered by the backup, with the backup's key and model
    AppCall fellBack = calls.get(2);
    assertThat(fellBack.status()).isEqualTo(200);
    assertThat(JSON.readTree(fellBack.body()).path("model").asText()).isEqualTo("gpt-4o-mini");
    // the stream, the refused call (and the client's own retries of it), and our direct stream
    assertThat(primary.requests()).hasSize(3 + line.retries429())
        .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
    assertThat(backup.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer backup-secret");
      assertThat(r.json().path("model").asText()).isEqualTo("gpt-4o-mini");
      assertThat(r.json().path("messages").get(0).path("content").asText())
          .isEqualTo("Say hello to the agent");
    });

    // The account: one request (the stream; the refused call was given back, the other host
    // never counted), and the stream's real 32 tokens, not its estimate of 500+.
    Decision account = peek(config, "primary");
    assertThat(account.remainingRequests()).isEqualTo(999);
    long tokensUsed = 100_000 - account.remainingTokens() - 1;
    assertThat(tokensUsed).as("tokens charged (refill of ~1.2/s aside)").isBetween(32L - 20, 32L);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"classic-5", "classic-4", "async-5"})
  void enforcesOneLimitAcrossTwoJvmsSharingRedisAndAnswersTheRestWithTheProvidersOwn429(
      String name) throws Exception {
    Line line = Line.of(name);
    Path config = write("tollgate.yaml", """
        tollgate:
          redis:
            url: %s
            timeout: 2s
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 5
        """.formatted(redis.uri(), primary.baseUrl()));
    String url = primary.baseUrl() + "/v1/chat/completions";
    ForkedApp one = line.app(dir.resolve("one"))
        .withAgent("config=" + config).calls(4, line.read(), url, CHAT);
    ForkedApp other = line.app(dir.resolve("other"))
        .withAgent("config=" + config).calls(4, line.readOtherwise(), url, CHAT);
    List<Run> runs = ForkedApp.runTogether(one, other);
    List<AppCall> calls = ForkedApp.callsOf(runs);
    assertThat(calls).hasSize(8);
    assertThat(calls).as("%s", runs).filteredOn(c -> c.status() == 200).hasSize(5);
    List<AppCall> limited = calls.stream().filter(c -> c.status() == 429).toList();
    assertThat(limited).hasSize(3).allSatisfy(c -> {
      assertThat(c.retryAfter()).matches("\\d+");
      assertThat(c.contentType()).startsWith("application/json");
      JsonNode error = JSON.readTree(c.body()).path("error");
      assertThat(error.path("code").asText()).isEqualTo("rate_limit_exceeded");
      assertThat(error.path("type").asText()).isEqualTo("requests");
      assertThat(error.path("message").asText()).isNotBlank();
    });
    assertThat(primary.requestCount()).isEqualTo(5);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"classic-5", "classic-4", "async-5"})
  void waitsForRoomWithoutFailingTheCall(String name) throws Exception {
    Line line = Line.of(name);
    Path config = write("tollgate.yaml", """
        tollgate:
          on-limit: wait
          max-wait: 5s
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-second: 1
        """.formatted(primary.baseUrl()));
    String url = primary.baseUrl() + "/v1/chat/completions";

    Run run = line.app(dir.resolve("app"))
        .withAgent("config=" + config)
        .calls(3, line.read(), url, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status)
        .as("a classic execute waits on the app's thread; an async one is resumed when there is "
            + "room, no thread held meanwhile")
        .containsExactly(200, 200, 200);
    // the first call's connection set-up delays its arrival, not its reservation: compare the
    // two that followed, each admitted a second after the one before
    List<RecordedRequest> arrived = primary.requests();
    assertThat(Duration.between(arrived.get(1).arrivedAt(), arrived.get(2).arrivedAt()))
        .isGreaterThan(Duration.ofMillis(500));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"async-5", "async-5.1"})
  void limitsAStreamedAsyncBodyAndSendsItOnceAsTheAppProducesIt(String name) throws Exception {
    Line line = Line.of(name);
    Path config = write("tollgate.yaml", """
        tollgate:
          redis:
            url: %s
            timeout: 2s
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 2
                tokens-per-day: 100000
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: ${BACKUP_KEY}
        """.formatted(redis.uri(), primary.baseUrl(), backup.baseUrl()));
    primary.usage(12, 20);
    primary.script().next(1, Fault.rateLimited(Duration.ZERO));

    Run run = line.app(dir.resolve("app"))
        .withAgent("config=" + config)
        .env("BACKUP_KEY", "backup-secret")
        .calls(4, "upload", primary.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).as(run.toString()).singleElement().asString().startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::status)
        .as("refused upstream (a stream is never sent to a fallback, nor retried), admitted "
            + "twice, then limited")
        .containsExactly(429, 200, 200, 429);
    assertThat(run.calls().get(0).retryAfter()).as("the provider's own refusal").isEqualTo("0");
    assertThat(JSON.readTree(run.calls().get(3).body()).path("error").path("type").asText())
        .as("Tollgate's: the requests limit").isEqualTo("requests");
    assertThat(primary.requests()).as("the app's bytes, as it streamed them").hasSize(3)
        .allSatisfy(r -> {
          assertThat(r.bodyText()).isEqualTo(CHAT);
          assertThat(r.header("transfer-encoding")).isEqualTo("chunked");
          assertThat(r.header("authorization")).isEqualTo("Bearer app-key");
        });
    assertThat(backup.requestCount()).isZero();

    // no reservation left open; two requests counted, each settled with its real 32 tokens
    assertThat(openReservations()).isEmpty();
    Decision account = peek(config, "primary");
    assertThat(account.remainingRequests()).isZero();
    long tokensUsed = 100_000 - account.remainingTokens() - 1;
    assertThat(tokensUsed).as("tokens charged (refill of ~1.2/s aside)").isBetween(64L - 20, 64L);
  }

  /**
   * The primary's 429 reaches HttpClient on one of its I/O threads ({@code httpclient-dispatch-N});
   * what follows is Tollgate's: the primary's reservation released and the backup's reserved,
   * Redis round trips both. None may run on an I/O thread. BlockHound cannot watch this JVM (the
   * agent's test class path does not carry it), so the JVM's own flight recorder does: every
   * socket read and write, and every sleep, with its thread; the test reads the recording after
   * the app ends.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"async-5", "async-5.1"})
  void fallsBackAfterA429WithoutTouchingRedisOrSleepingOnTheClientsIoThreads(String name)
      throws Exception {
    Line line = Line.of(name);
    Path config = write("tollgate.yaml", """
        tollgate:
          redis:
            url: %s
            timeout: 2s
          providers:
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
              limits:
                requests-per-day: 1000
        """.formatted(redis.uri(), primary.baseUrl(), backup.baseUrl()));
    primary.script().next(1 + line.retries429(), Fault.rateLimited(Duration.ZERO));
    Path settings = write("io.jfc", """
        <?xml version="1.0" encoding="UTF-8"?>
        <configuration version="2.0" label="io" description="socket I/O and sleeps, every one">
          <event name="jdk.SocketRead"><setting name="enabled">true</setting>
            <setting name="stackTrace">true</setting><setting name="threshold">0 ms</setting></event>
          <event name="jdk.SocketWrite"><setting name="enabled">true</setting>
            <setting name="stackTrace">true</setting><setting name="threshold">0 ms</setting></event>
          <event name="jdk.ThreadSleep"><setting name="enabled">true</setting>
            <setting name="stackTrace">true</setting><setting name="threshold">0 ms</setting></event>
        </configuration>
        """);
    Path recording = dir.resolve("app.jfr");

    Run run = line.app(dir.resolve("app"))
        .jvmOption("-XX:StartFlightRecording=filename=" + recording + ",settings=" + settings
            + ",dumponexit=true")
        .withAgent("config=" + config)
        .env("BACKUP_KEY", "backup-secret")
        .call(line.read(), primary.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.tollgateLines()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::status).as("answered by the backup")
        .containsExactly(200);
    assertThat(primary.requestCount()).isEqualTo(1 + line.retries429());
    assertThat(backup.requests()).singleElement().satisfies(r ->
        assertThat(r.header("authorization")).isEqualTo("Bearer backup-secret"));
    Decision account = peek(config, "primary");
    assertThat(account.remainingRequests()).as("the primary's reservation was given back")
        .isEqualTo(1000);

    int redisPort = redis.uri().getPort();
    List<RecordedEvent> events = RecordingFile.readAllEvents(recording);
    List<String> redisTalkers = events.stream()
        .filter(e -> e.getEventType().getName().startsWith("jdk.Socket"))
        .filter(e -> e.getInt("port") == redisPort)
        .map(e -> e.getThread() == null ? "?" : e.getThread().getJavaName())
        .distinct().toList();
    assertThat(redisTalkers).as("threads that talked to Redis").isNotEmpty()
        .noneMatch(thread -> thread.startsWith("httpclient-"))
        .anyMatch(thread -> thread.startsWith("tollgate-async-"));
    assertThat(events.stream()
        .filter(e -> e.getEventType().getName().equals("jdk.ThreadSleep"))
        .map(e -> e.getThread() == null ? "?" : e.getThread().getJavaName()))
        .as("threads that slept").noneMatch(thread -> thread.startsWith("httpclient-"));
  }

  @Test
  void settlesAHttpClient4ResponseClosedUnreadWithTheEstimate() throws Exception {
    Path config = write("tollgate.yaml", """
        tollgate:
          redis:
            url: %s
            timeout: 2s
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-day: 1000
                tokens-per-day: 100000
        """.formatted(redis.uri(), primary.baseUrl()));
    primary.usage(12, 20);

    Run run = Line.of("classic-4").app(dir.resolve("app"))
        .withAgent("config=" + config)
        .call("unread", primary.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).as(run.toString()).singleElement().asString().startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200);
    // closed with nothing read: settled then, with the estimate (the provider did the work)
    assertThat(openReservations()).as("no reservation left open").isEmpty();
    Decision account = peek(config, "primary");
    assertThat(account.remainingRequests()).isEqualTo(999);
    long estimate = LlmProtocol.of(ProviderApi.OPENAI)
        .readRequest("/v1/chat/completions", CHAT.getBytes(StandardCharsets.UTF_8), 1024)
        .estimate().totalTokens();
    assertThat(estimate).isGreaterThan(300); // max_tokens, and the prompt
    long tokensUsed = 100_000 - account.remainingTokens() - 1;
    assertThat(tokensUsed).as("tokens charged (refill of ~1.2/s aside)")
        .isBetween(estimate - 20, estimate);
  }

  @Test
  void injectsTheHelpersIntoEachLoaderThatHasHttpClient5AndAllShareTheJvmsGate() throws Exception {
    Path config = write("tollgate.yaml", primaryLimitedTo(primary.baseUrl(), "requests-per-hour: 1"));
    // the launcher alone on the class path; the app only inside the child loaders, one with
    // HttpClient 5.1, one with 5.6
    Path launcher = ClassLoadersIT.copyClasses(dir.resolve("launcher"), "ChildLoaderLauncher");
    Path app = ClassLoadersIT.copyClasses(dir.resolve("app-classes"), "ApacheClassic5App", "AppHeaders");

    Run run = ForkedApp.launcher(dir.resolve("run"), launcher.toString(),
            "io.tollgate.agent.it.app.ChildLoaderLauncher", app.toString(),
            ForkedApp.libraryJars("apache-5-oldest").toAbsolutePath().toString(),
            ForkedApp.libraryJars("apache-5").toAbsolutePath().toString(), "--")
        .jvmOption("-Dlauncher.app=io.tollgate.agent.it.app.ApacheClassic5App")
        .withAgent("config=" + config)
        .call("sync", primary.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.stdout()).as(run.toString()).containsSubsequence(
        "loader apache-5-oldest", "app done", "loader apache-5", "app done");
    assertThat(run.stderr()).as(run.toString()).singleElement().asString().startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::status)
        .as("one request an hour: HttpClient 5.1's call took it, 5.6's is limited")
        .containsExactly(200, 429);
    assertThat(primary.requestCount()).isEqualTo(1);
  }

  /** The provider's account in Redis, read by charging one token. */
  private static Decision peek(Path config, String provider) {
    TollgateConfig parsed = TollgateConfigLoader.builder()
        .environment(Map.of("BACKUP_KEY", "x")).build().load(config);
    Limits limits = parsed.provider(provider).orElseThrow().limits().toLimits();
    try (RedisConnection jedis = RedisConnection.standalone(redis.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(1).build()) {
      return RateLimiter.redis(jedis).reserve(Subject.of("provider", provider), limits, 0, 1);
    }
  }

  /** Reservation records still in Redis: each is a call neither settled nor released. */
  private static java.util.Set<String> openReservations() {
    try (Jedis jedis = redis.jedis()) {
      return jedis.keys("tg:*:r:*");
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
