package io.tollgate.sdkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;
import io.tollgate.sdkit.ForkedSdkApp.Run;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import io.tollgate.testkit.redis.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What must hold for an app on an SDK or framework under the agent, whatever the SDK: its calls
 * limited (the provider-shaped 429 reaching the app as the SDK's own rate-limit error), its
 * streams passed through whole and settled with their real usage, a provider's 429 answered by the
 * fallback with the fallback's own key and model. One subclass per SDK says what its app sees.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SdkAgentContract {

  static final String PRIMARY_TEXT = "Hello from the primary";
  static final String BACKUP_TEXT = "Hello from the backup";
  /** What the mock reports for every call: 12 prompt tokens, 20 completion tokens. */
  static final int PROMPT_TOKENS = 12;
  static final int COMPLETION_TOKENS = 20;

  @AutoClose final RedisServer redis = RedisServer.start();
  @AutoClose final MockLlmServer primary = MockLlmServer.start();
  @AutoClose final MockLlmServer backup = MockLlmServer.start();

  @TempDir Path dir;

  /** The app's main class. */
  abstract String app();

  /**
   * The provider API of both mocks in the configuration, {@code openai} unless an SDK says
   * otherwise (the accessors below default to OpenAI's API likewise).
   */
  String api() {
    return "openai";
  }

  /** The model the app asks for. */
  String model() {
    return "gpt-4o";
  }

  /** The model the backup is asked for instead (the configuration's model map). */
  String backupModel() {
    return "gpt-4o-mini";
  }

  /** The request header that carries the app's key as its SDK sends it, and its value for {@code key}. */
  String appKeyHeader() {
    return "authorization";
  }

  String appKeyValue(String key) {
    return "Bearer " + key;
  }

  /** The header that carries the fallback's key as Tollgate sends it, and its value for {@code key}. */
  String fallbackKeyHeader() {
    return appKeyHeader();
  }

  String fallbackKeyValue(String key) {
    return appKeyValue(key);
  }

  /** The app's line for a call refused by the limit (the SDK's own error, as it parsed ours). */
  abstract String limitedLine(int step, String kind);

  /** The app's line for a call answered with {@code text} and the mock's usage. */
  String okLine(int step, String kind, String model, String text) {
    return "step " + step + " " + kind + " ok model=" + model + " usage=" + PROMPT_TOKENS + "/"
        + COMPLETION_TOKENS + " text=" + text;
  }

  @BeforeEach
  void reset() {
    redis.flushAll();
    primary.reset();
    backup.reset();
    primary.replyText(PRIMARY_TEXT).usage(PROMPT_TOKENS, COMPLETION_TOKENS);
    backup.replyText(BACKUP_TEXT).usage(PROMPT_TOKENS, COMPLETION_TOKENS);
  }

  @Test
  void limitsTheCallsStreamsThemWholeAndSettlesTheirRealUsage() throws Exception {
    Path config = SdkConfigs.primaryLimitedTo(dir, redis, primary, api(),
        "requests-per-day: 2", "tokens-per-day: 100000");

    Run run = app(config, primary).run("chat", "stream", "chat");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.stderr()).as("nothing on the app's stderr but the agent's start-up line")
        .singleElement().asString().startsWith("[tollgate] on:");
    assertThat(run.steps()).as(run.toString()).containsExactly(
        okLine(1, "chat", model(), PRIMARY_TEXT),
        okLine(2, "stream", model(), PRIMARY_TEXT),
        limitedLine(3, "chat"));
    // the refused call never left the app's JVM
    assertThat(primary.requests()).hasSize(2).allSatisfy(r -> {
      assertThat(r.header(appKeyHeader())).isEqualTo(appKeyValue("app-key"));
      assertThat(r.json().path("model").asText()).isEqualTo(model());
    });
    assertThat(primary.requests().get(1).json().path("stream").asBoolean()).isTrue();

    // both calls charged with the mock's real usage, 32 tokens each, not their estimates of 300+
    Decision account = peek(config);
    assertThat(account.remainingRequests()).isZero();
    long tokensUsed = 100_000 - account.remainingTokens() - 1;
    int used = 2 * (PROMPT_TOKENS + COMPLETION_TOKENS);
    assertThat(tokensUsed).as("tokens charged (refill of ~1.2/s aside)").isBetween(used - 20L, (long) used);
  }

  @Test
  void answersAProvidersRateLimitFromTheFallbackWithItsOwnKeyAndModel() throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          redis:
            url: %s
            timeout: 2s # a cold forked JVM's first calls may be slow; a timeout would fail open
          providers:
            primary:
              base-url: %s
              api: %s
              limits:
                requests-per-day: 1000
              fallbacks: [backup]
            backup:
              base-url: %s
              api: %s
              api-key: ${BACKUP_KEY}
              model-map:
                %s: %s
        """.formatted(redis.uri(), primary.baseUrl(), api(), backup.baseUrl(), api(), model(),
        backupModel()));
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(30)));

    Run run = app(config, primary).env("BACKUP_KEY", "backup-secret").run("chat");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.steps()).as(run.toString())
        .containsExactly(okLine(1, "chat", backupModel(), BACKUP_TEXT));
    assertThat(primary.requests()).singleElement().satisfies(r -> assertThat(r.header(appKeyHeader()))
        .as(r.headers().toString()).isEqualTo(appKeyValue("app-key")));
    RecordedRequest rerouted = backup.requests().get(0);
    assertThat(backup.requests()).hasSize(1);
    assertThat(rerouted.header(fallbackKeyHeader())).as(rerouted.headers().toString())
        .isEqualTo(fallbackKeyValue("backup-secret"));
    assertThat(rerouted.json().path("model").asText()).isEqualTo(backupModel());
    assertThat(rerouted.headers().toString()).as("the app's key never reaches the backup")
        .doesNotContain("app-key");
  }

  /**
   * For an SDK with an asynchronous client (OkHttp's {@code enqueue} underneath): one call
   * admitted, the next refused with the SDK's own error, one request at the provider.
   */
  void limitsTheAsynchronousClientToo() throws Exception {
    Path config = SdkConfigs.primaryLimitedTo(dir, redis, primary, api(), "requests-per-day: 1");

    Run run = app(config, primary).run("async", "async");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.steps()).as(run.toString())
        .containsExactly(okLine(1, "async", model(), PRIMARY_TEXT), limitedLine(2, "async"));
    assertThat(primary.requests()).hasSize(1);
  }

  ForkedSdkApp app(Path config, MockLlmServer provider) {
    return new ForkedSdkApp(app(), dir.resolve("app")).withAgent(config)
        .env("PROVIDER_URL", provider.baseUrl())
        .env("APP_KEY", "app-key");
  }

  /** The primary's account in Redis, read by charging one token. */
  private Decision peek(Path config) {
    TollgateConfig parsed = TollgateConfigLoader.builder()
        .environment(Map.of("BACKUP_KEY", "x")).build().load(config);
    try (RedisConnection connection = RedisConnection.standalone(redis.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(1).build()) {
      return RateLimiter.redis(connection).reserve(Subject.of("provider", "primary"),
          parsed.provider("primary").orElseThrow().limits().toLimits(), 0, 1);
    }
  }

}
