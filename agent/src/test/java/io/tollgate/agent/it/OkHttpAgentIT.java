package io.tollgate.agent.it;

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
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An unmodified OkHttp app under {@code -javaagent:tollgate-agent.jar}, once per OkHttp line
 * (3.14, 4.12, 5.x), against real Redis and mock providers.
 */
class OkHttpAgentIT {

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

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    redis.flushAll();
    primary.reset();
    backup.reset();
    elsewhere.reset();
  }

  @ParameterizedTest(name = "OkHttp {0}")
  @ValueSource(strings = {"3", "4", "5"})
  void leavesOtherCallsAloneStreamsAndSettlesAndFallsBackWithTheFallbacksOwnKey(String okhttp)
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
    primary.script().next(1, Fault.none()).next(1, Fault.rateLimited(Duration.ofSeconds(1)));

    Run run = ForkedApp.okhttp(okhttp, dir.resolve("app"))
        .withAgent("config=" + config)
        .env("APP_KEY", "app-key")
        .env("BACKUP_KEY", "backup-secret")
        .call("sync", elsewhere.baseUrl() + "/v1/models", null)
        .call("stream", primary.baseUrl() + "/v1/chat/completions", STREAM)
        .call("sync", primary.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).as("nothing on the app's stderr but the start-up line")
        .singleElement().asString().startsWith("[tollgate] on:");
    List<AppCall> calls = run.calls();
    assertThat(calls).as(run.toString()).hasSize(3);

    // 1. another host: byte-identical, sent as the app wrote it
    AppCall models = calls.get(0);
    assertThat(models.status()).isEqualTo(200);
    assertThat(models.body()).isEqualTo(direct("GET", elsewhere.uri("/v1/models"), null));
    RecordedRequest other = elsewhere.requests().get(0);
    assertThat(other.header("authorization")).isEqualTo("Bearer app-key");

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
    assertThat(primary.requests()).hasSize(3) // stream, refused call, and our direct stream
        .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
    assertThat(backup.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer backup-secret");
      assertThat(r.json().path("model").asText()).isEqualTo("gpt-4o-mini");
    });

    // The account: one request (the stream; the refused call was given back, the other host
    // never counted), and the stream's real 32 tokens, not its estimate of 500+.
    Decision account = peek(config, "primary");
    assertThat(account.remainingRequests()).isEqualTo(999);
    long tokensUsed = 100_000 - account.remainingTokens() - 1;
    assertThat(tokensUsed).as("tokens charged (refill of ~1.2/s aside)").isBetween(32L - 20, 32L);
  }

  @ParameterizedTest(name = "OkHttp {0}")
  @ValueSource(strings = {"3", "4", "5"})
  void enforcesOneLimitAcrossTwoJvmsSharingRedis(String okhttp) throws Exception {
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
    ForkedApp executing = ForkedApp.okhttp(okhttp, dir.resolve("sync"))
        .withAgent("config=" + config).calls(4, "sync", url, CHAT);
    ForkedApp enqueuing = ForkedApp.okhttp(okhttp, dir.resolve("async"))
        .withAgent("config=" + config).calls(4, "async", url, CHAT);
    List<AppCall> calls = ForkedApp.callsOf(ForkedApp.runTogether(executing, enqueuing));
    assertThat(calls).hasSize(8);
    assertThat(calls).filteredOn(c -> c.status() == 200).hasSize(5);
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

  @Test
  void aCallAskingForLongMaxTokensGetsA429AndIsNeverSent() throws Exception {
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
                tokens-per-minute: 100000
        """.formatted(redis.uri(), primary.baseUrl()));
    String hostile = "{\"model\":\"gpt-4o\",\"max_tokens\":9223372036854775807,"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the agent\"}]}";

    Run run = ForkedApp.okhttp("5", dir.resolve("app"))
        .withAgent("config=" + config)
        .calls(1, "sync", primary.baseUrl() + "/v1/chat/completions", hostile)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    AppCall refused = run.calls().get(0);
    assertThat(refused.status()).isEqualTo(429);
    assertThat(refused.retryAfter()).isEqualTo("-");
    assertThat(JSON.readTree(refused.body()).at("/error/message").asText()).isEqualTo("Request too large for"
        + " gpt-4o on tokens per min (TPM): Requested 1125899906842624. The input or output tokens must be"
        + " reduced in order to run successfully. (Tollgate)");
    assertThat(run.tollgateLines()).noneMatch(line -> line.contains("internal failure"));
    assertThat(primary.requestCount()).isZero();
  }

  @Test
  void waitsForRoomOnlyOnTheThreadThatCalledExecute() throws Exception {
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
    // The same server by another name, which no provider has: warms the app's OkHttp (a cold JVM's
    // first request can take longer than the wait measured below) without spending the limit.
    String warmUp = "http://localhost:" + URI.create(primary.baseUrl()).getPort() + "/v1/models";

    Run run = ForkedApp.okhttp("5", dir.resolve("app"))
        .withAgent("config=" + config)
        .calls(1, "sync", warmUp, "-")
        .calls(2, "sync", url, CHAT)
        .calls(2, "async", url, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status)
        .as("execute() waits for its turn; enqueue(), on OkHttp's dispatcher, would have waited "
            + "for a second each, but is answered at once")
        .containsExactly(200, 200, 200, 429, 429);
    List<RecordedRequest> arrived = primary.requests();
    assertThat(arrived).extracting(RecordedRequest::path)
        .containsExactly("/v1/models", "/v1/chat/completions", "/v1/chat/completions");
    assertThat(Duration.between(arrived.get(1).arrivedAt(), arrived.get(2).arrivedAt()))
        .isGreaterThan(Duration.ofMillis(500));
  }

  @ParameterizedTest(name = "OkHttp {0}")
  @ValueSource(strings = {"3", "4", "5"})
  void chargesEnqueuedCallsToTheTenantBoundWhereTheAppEnqueuedThem(String okhttp) throws Exception {
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
          tenants:
            header: X-Tenant-Id
            limits:
              requests-per-hour: 2
        """.formatted(redis.uri(), primary.baseUrl()));
    String url = primary.baseUrl() + "/v1/chat/completions";

    Run run = ForkedApp.okhttp(okhttp, dir.resolve("app"))
        .withAgent("config=" + config)
        .bindingTenant("acme")
        .calls(3, "async", url, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200, 200, 429);
    AppCall limited = run.calls().get(2);
    assertThat(limited.retryAfter()).matches("\\d+");
    assertThat(JSON.readTree(limited.body()).path("error").path("code").asText())
        .isEqualTo("rate_limit_exceeded");
    assertThat(primary.requestCount()).isEqualTo(2);
    Decision tenant = peek(config, Subject.of("tenant", "acme"),
        parsed(config).tenants().orElseThrow().limitsFor("acme").toLimits());
    assertThat(tenant.remainingRequests()).as("acme's 2 requests an hour").isZero();
    assertThat(peek(config, "primary").remainingRequests()).isEqualTo(998);
  }

  @Test
  void anEnqueuedCallSwitchesToTheFallbackAndIsLimitedWithoutWaitingOnTheDispatcher()
      throws Exception {
    Path config = write("tollgate.yaml", """
        tollgate:
          on-limit: wait
          max-wait: 2m
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-minute: 1
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: ${BACKUP_KEY}
              limits:
                requests-per-minute: 1
        """.formatted(primary.baseUrl(), backup.baseUrl()));
    primary.script().next(1, Fault.rateLimited(Duration.ZERO));
    String url = primary.baseUrl() + "/v1/chat/completions";

    // The app gives each enqueued call 30 s: a dispatcher thread waiting a minute for room fails it.
    Run run = ForkedApp.okhttp("4", dir.resolve("app"))
        .withAgent("config=" + config)
        .env("BACKUP_KEY", "backup-secret")
        .calls(3, "async", url, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status)
        .as("refused upstream: the backup; then the primary; then no room anywhere for a minute")
        .containsExactly(200, 200, 429);
    assertThat(JSON.readTree(run.calls().get(0).body()).path("model").asText())
        .isEqualTo("gpt-4o");
    assertThat(primary.requestCount()).isEqualTo(2);
    assertThat(backup.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("authorization")).isEqualTo("Bearer backup-secret"));
  }

  /** The provider's account in Redis, read by charging one token. */
  private static Decision peek(Path config, String provider) {
    return peek(config, Subject.of("provider", provider),
        parsed(config).provider(provider).orElseThrow().limits().toLimits());
  }

  /** An account in Redis, read by charging one token. */
  private static Decision peek(Path config, Subject subject, Limits limits) {
    try (RedisConnection connection = RedisConnection.standalone(redis.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(1).build()) {
      return RateLimiter.redis(connection).reserve(subject, limits, 0, 1);
    }
  }

  private static TollgateConfig parsed(Path config) {
    return TollgateConfigLoader.builder()
        .environment(Map.of("BACKUP_KEY", "x")).build().load(config);
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
