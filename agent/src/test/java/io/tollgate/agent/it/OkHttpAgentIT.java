package io.tollgate.agent.it;

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
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import io.tollgate.testkit.redis.RedisServer;
import java.net.URI;
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
 * What only OkHttp does under {@code -javaagent:tollgate-agent.jar} (an unmodified app, real Redis,
 * mock providers): {@code enqueue}, run on OkHttp's dispatcher, never waits there, and is charged
 * to the tenant bound where the app enqueued it. What every client does is {@link ClientContractIT}
 * ({@code OkHttp3ContractIT}, {@code OkHttp4ContractIT}, {@code OkHttp5ContractIT}).
 */
class OkHttpAgentIT {

  @AutoClose static final RedisServer redis = RedisServer.start();
  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the agent\"}]}";

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    redis.flushAll();
    primary.reset();
    backup.reset();
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
        .calls(3, "sync", url, CHAT)
        .calls(2, "async", url, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status)
        .as("execute() waits for its turn; enqueue(), on OkHttp's dispatcher, would have waited "
            + "for a second each, but is answered at once")
        .containsExactly(200, 200, 200, 200, 429, 429);
    List<RecordedRequest> arrived = primary.requests();
    assertThat(arrived).extracting(RecordedRequest::path).containsExactly("/v1/models",
        "/v1/chat/completions", "/v1/chat/completions", "/v1/chat/completions");
    // the span of three paced requests, not one gap: a slow send (a loaded machine) may shorten
    // one gap between arrivals
    assertThat(Duration.between(arrived.get(1).arrivedAt(), arrived.get(3).arrivedAt()))
        .as("three requests at one a second").isGreaterThan(Duration.ofSeconds(1));
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

  private Path write(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }
}
