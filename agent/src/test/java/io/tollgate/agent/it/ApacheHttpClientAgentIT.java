package io.tollgate.agent.it;

import static io.tollgate.agent.HelperConfigs.primaryLimitedTo;
import static org.assertj.core.api.Assertions.assertThat;

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
import io.tollgate.testkit.redis.RedisServer;
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

/**
 * What only Apache HttpClient does under {@code -javaagent:tollgate-agent.jar} (an unmodified app,
 * real Redis, mock providers): an async body the app streams from a producer of its own, the
 * fallback after a 429 kept off the client's I/O threads, a 4.5 response closed unread, the helpers
 * in each class loader that has HttpClient 5. What every client does is {@link ClientContractIT}
 * ({@code Apache4ClassicContractIT}, {@code Apache5ClassicContractIT}, {@code Apache5AsyncContractIT},
 * and on 5.1 {@code Apache51ClassicContractIT}, {@code Apache51AsyncContractIT}).
 */
class ApacheHttpClientAgentIT {

  @AutoClose static final RedisServer redis = RedisServer.start();
  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the agent\"}]}";

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
  }

  /** HttpClient 5's default retry strategy re-sends a 429 once, after its {@code Retry-After}. */
  private static final int RETRIES_OF_429 = 1;

  /**
   * The async app on {@code line}: "async-5", the latest HttpClient 5, or "async-5.1", the oldest
   * supported, the one the helpers are compiled against.
   */
  private static ForkedApp asyncApp(String line, Path workDir) {
    String libs = switch (line) {
      case "async-5" -> "apache-5";
      case "async-5.1" -> "apache-5-oldest";
      default -> throw new IllegalArgumentException(line);
    };
    return ForkedApp.client(libs, "io.tollgate.agent.it.app.ApacheAsync5App", workDir);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"async-5", "async-5.1"})
  void limitsAStreamedAsyncBodyAndSendsItOnceAsTheAppProducesIt(String name) throws Exception {
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

    Run run = asyncApp(name, dir.resolve("app"))
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

    // two requests counted, each settled with its real 32 tokens
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
    primary.script().next(1 + RETRIES_OF_429, Fault.rateLimited(Duration.ZERO));
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

    Run run = asyncApp(name, dir.resolve("app"))
        .jvmOption("-XX:StartFlightRecording=filename=" + recording + ",settings=" + settings
            + ",dumponexit=true")
        .withAgent("config=" + config)
        .env("BACKUP_KEY", "backup-secret")
        .call("future", primary.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.tollgateLines()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::status).as("answered by the backup")
        .containsExactly(200);
    assertThat(primary.requestCount()).isEqualTo(1 + RETRIES_OF_429);
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

    Run run = ForkedApp.client("apache-4", "io.tollgate.agent.it.app.ApacheClassic4App",
            dir.resolve("app"))
        .withAgent("config=" + config)
        .call("unread", primary.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).as(run.toString()).singleElement().asString().startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200);
    // closed with nothing read: settled then, with the estimate (the provider did the work), which
    // leaves in Redis what the reserve took
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

  private Path write(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }
}
