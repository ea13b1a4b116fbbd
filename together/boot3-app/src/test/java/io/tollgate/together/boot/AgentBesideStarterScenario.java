package io.tollgate.together.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.limiter.Subject;
import io.tollgate.servlet.TollgateFilter;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import io.tollgate.testkit.redis.RedisServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * A Spring Boot fat jar on the starter, run with the agent attached, both configured by one
 * {@code tollgate.yaml} on one Redis: the starter limits the app's tenants on the way in and its
 * {@code RestClient} on the way out, the agent the app's own JDK {@code HttpClient}. Each
 * outbound call is gated exactly once, by one or the other (the provider's limit of 2 would show a
 * call gated twice, the primary's count a call gated by neither), and the tenant the starter's
 * filter bound is charged in Redis for the tokens of every outbound call its requests caused,
 * whoever gated them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AgentBesideStarterScenario {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";
  /** Each mock answers with 12 prompt and 9 completion tokens. */
  static final int TOKENS_PER_CALL = 21;
  static final int TENANT_TOKENS_PER_DAY = 100_000;

  final RedisServer redis = RedisServer.start();
  final MockLlmServer primary = MockLlmServer.start().usage(12, 9);
  final MockLlmServer backup = MockLlmServer.start().usage(12, 9);
  BootAppWithAgent app;

  /** Whether the app declares an OpenTelemetry bean of its own. */
  abstract boolean appOpenTelemetry();

  /** Checks the names of the spans the app's own OpenTelemetry holds after the scenario's calls. */
  abstract void checkAppSpans(List<String> names);

  @BeforeAll
  void startApp(@TempDir Path dir) throws Exception {
    // one file for both, as docs recommend: the agent's config= and the app's spring.config.import
    Path tollgateYaml = dir.resolve("tollgate.yaml");
    Files.writeString(tollgateYaml, """
        tollgate:
          redis:
            url: %s
            timeout: 2s
          providers:
            openai:
              base-url: %s
              limits:
                requests-per-hour: 2
              fallbacks: [backup]
            backup:
              base-url: %s
              api-key: sk-backup
              model-map:
                gpt-4o: gpt-4o-mini
          tenants:
            header: X-Tenant-Id
            limits:
              # a window's count is exactly what was charged in it: the test reads it back
              algorithm: sliding-window
              requests-per-hour: 3
              tokens-per-day: %d
        """.formatted(redis.uri(), primary.baseUrl(), backup.baseUrl(), TENANT_TOKENS_PER_DAY));
    List<String> arguments = new ArrayList<>(List.of(
        "--spring.config.import=optional:file:" + tollgateYaml,
        "--chat.upstream=" + primary.baseUrl()));
    if (appOpenTelemetry()) {
      arguments.add("--app.opentelemetry=true");
    }
    app = BootAppWithAgent.start(dir, tollgateYaml, arguments);
  }

  @AfterAll
  void stop() throws Exception {
    if (app != null) {
      app.close();
    }
    primary.close();
    backup.close();
    redis.stop();
  }

  @Test
  void gatesEachCallOnceChargesTheTenantInRedisAndIsHealthy() throws Exception {
    HttpResponse<String> health = app.get("/actuator/health");
    assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
    JsonNode tollgate = JSON.readTree(health.body()).at("/components/tollgate");
    assertThat(tollgate.get("status").asText()).isEqualTo("UP");
    assertThat(tollgate.at("/details/limiter").asText()).isEqualTo("redis");
    assertThat(tollgate.at("/details/redisReachable").asBoolean()).isTrue();

    List<Integer> statuses = new ArrayList<>();
    List<HttpResponse<String>> answers = new ArrayList<>();
    for (String[] call : new String[][] {
        {"/chat", "acme"}, {"/chat/raw", "acme"}, {"/chat", "acme"}, {"/chat/raw", "globex"}, {"/chat", "acme"}}) {
      HttpResponse<String> answer = app.post(call[0], call[1], CHAT);
      answers.add(answer);
      statuses.add(answer.statusCode());
    }
    // the primary takes two (its limit), the starter and the agent each reroute one to the backup,
    // acme's fourth request is over its tenant limit of 3 at the filter
    assertThat(statuses).as("%s\n--- the app's log\n%s", answers.stream()
            .map(answer -> answer.statusCode() + " " + answer.headers().map() + " " + answer.body()).toList(),
            app.log())
        .containsExactly(200, 200, 200, 200, 429);
    assertThat(JSON.readTree(answers.get(2).body()).get("model").asText()).isEqualTo("gpt-4o-mini");
    assertThat(JSON.readTree(answers.get(3).body()).get("model").asText()).isEqualTo("gpt-4o-mini");
    assertThat(answers.get(4).headers().firstValue("x-tollgate")).contains("rate-limited");

    List<RecordedRequest> onPrimary = primary.awaitRequests(2, Duration.ofSeconds(10));
    List<RecordedRequest> onBackup = backup.awaitRequests(2, Duration.ofSeconds(10));
    assertThat(primary.requestCount()).isEqualTo(2);
    assertThat(backup.requestCount()).isEqualTo(2);
    assertThat(onPrimary).extracting(r -> r.header("authorization")).containsOnly("Bearer sk-app");
    assertThat(onBackup).extracting(r -> r.header("authorization")).containsOnly("Bearer sk-backup");
    assertThat(onBackup).extracting(r -> r.json().get("model").asText()).containsOnly("gpt-4o-mini");

    // acme's three outbound calls (two gated by the starter, one by the agent) in its bucket in Redis
    JsonNode acme = awaitSettled("acme", 3);
    assertThat(acme.get("tenant").asText()).isEqualTo(Subject.of("tenant", "acme").idHash());
    assertThat(acme.at("/outbound/remainingRequests").asLong()).isZero();
    assertThat(acme.at("/outbound/remainingTokens").asLong()).isEqualTo(TENANT_TOKENS_PER_DAY - 3 * TOKENS_PER_CALL);
    assertThat(acme.at("/inbound/remainingRequests").asLong()).isZero();
    JsonNode globex = awaitSettled("globex", 1);
    assertThat(globex.at("/outbound/remainingRequests").asLong()).isEqualTo(2);
    assertThat(globex.at("/outbound/remainingTokens").asLong()).isEqualTo(TENANT_TOKENS_PER_DAY - TOKENS_PER_CALL);
    try (Jedis jedis = redis.jedis()) {
      assertThat(jedis.keys("tg:" + Subject.of("tenant", "acme").hashTag() + ":*")).isNotEmpty();
      assertThat(jedis.keys("tg:" + Subject.of(TollgateFilter.SCOPE, "acme").hashTag() + ":*")).isNotEmpty();
      assertThat(jedis.keys("*acme*")).as("the tenant id never reaches Redis raw").isEmpty();
    }

    List<String> spans = new ArrayList<>();
    HttpResponse<String> spanNames = app.get("/spans", "operator");
    assertThat(spanNames.statusCode()).as(spanNames.body()).isEqualTo(200);
    JSON.readTree(spanNames.body()).forEach(name -> spans.add(name.asText()));
    checkAppSpans(spans);

    String log = app.log();
    assertThat(log).contains("[tollgate] on: mode enforce, providers [openai, backup], limiter redis");
    assertThat(log).doesNotContain("internal failure").doesNotContain("Exception");
  }

  /** The starter's reading of a tenant once its last call's tokens are settled (settling is asynchronous). */
  private JsonNode awaitSettled(String tenant, int calls) throws Exception {
    long expected = TENANT_TOKENS_PER_DAY - (long) calls * TOKENS_PER_CALL;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      JsonNode reading = JSON.readTree(app.get("/actuator/tollgate/" + tenant).body());
      if (reading.at("/outbound/remainingTokens").asLong() == expected || System.nanoTime() > deadline) {
        return reading;
      }
      TimeUnit.MILLISECONDS.sleep(50); // polling interval of an asynchronous settle
    }
  }
}
