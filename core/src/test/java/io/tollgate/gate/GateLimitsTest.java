package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.STREAMED_CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Limits through the gate: enforced, shared through Redis, waited for, shadowed, settled. */
class GateLimitsTest {

  private static RedisServer redis;
  private MockLlmServer provider;
  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));

  @BeforeAll
  static void startRedis() {
    redis = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @BeforeEach
  void start() {
    redis.flushAll();
    provider = MockLlmServer.start().usage(100, 20);
  }

  @AfterEach
  void stop() {
    provider.close();
  }

  private Gate gate(String settings, String limits) {
    return Gate.create(config("""
        tollgate:
        %s
          redis:
            url: %s
          providers:
            openai:
              base-url: %s
              limits: { %s }
        """.formatted(settings, redis.uri(), provider.baseUrl(), limits), Map.of()));
  }

  private CallResult<HttpResponse<InputStream>> call(Gate gate) throws Exception {
    CallResult<HttpResponse<InputStream>> result =
        gate.call(chat(provider.baseUrl(), "sk-app", CHAT), true, transport);
    if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
      readBody(result);
    }
    return result;
  }

  @Test
  void twoGatesOnOneRedisAdmitExactlyTheLimitBetweenThem() throws Exception {
    try (Gate first = gate("", "requests-per-minute: 5"); Gate second = gate("", "requests-per-minute: 5")) {
      int admitted = 0;
      for (int i = 0; i < 4; i++) {
        admitted += status(call(first)) == 200 ? 1 : 0;
        admitted += status(call(second)) == 200 ? 1 : 0;
      }

      assertThat(admitted).isEqualTo(5);
      assertThat(provider.requestCount()).isEqualTo(5);
    }
  }

  @Test
  void aRefusedCallGetsTheProvidersOwn429() throws Exception {
    try (Gate gate = gate("", "requests-per-minute: 1")) {
      call(gate);

      CallResult<HttpResponse<InputStream>> refused = call(gate);

      SyntheticResponse response = ((CallResult.Synthetic<HttpResponse<InputStream>>) refused).response();
      JsonNode body = new ObjectMapper().readTree(response.body());
      assertThat(response.status()).isEqualTo(429);
      assertThat(response.headers().first("retry-after")).contains("60");
      assertThat(response.headers().first("x-ratelimit-limit-requests")).contains("1");
      assertThat(response.headers().first("x-ratelimit-remaining-requests")).contains("0");
      assertThat(body.at("/error/type").asText()).isEqualTo("requests");
      assertThat(body.at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
      assertThat(provider.requestCount()).isEqualTo(1);
    }
  }

  @Test
  void aCallThatCanNeverFitGetsA429WithoutRetryAfter() throws Exception {
    try (Gate gate = gate("", "tokens-per-minute: 10")) {
      CallResult<HttpResponse<InputStream>> refused = call(gate);

      SyntheticResponse response = ((CallResult.Synthetic<HttpResponse<InputStream>>) refused).response();
      JsonNode body = new ObjectMapper().readTree(response.body());
      assertThat(response.status()).isEqualTo(429);
      assertThat(response.headers().first("retry-after")).isEmpty();
      assertThat(body.at("/error/type").asText()).isEqualTo("tokens");
      assertThat(provider.requestCount()).isZero();
    }
  }

  @Test
  void aCallAskingForLongMaxTokensNeverFitsAndIsNotSent() throws Exception {
    String hostile = "{\"model\":\"gpt-4o\",\"max_tokens\":9223372036854775807,"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}";
    try (Gate gate = gate("  on-limit: wait", "tokens-per-minute: 100000")) {
      CallResult<HttpResponse<InputStream>> refused =
          gate.call(chat(provider.baseUrl(), "sk-app", hostile), true, transport);

      SyntheticResponse response = ((CallResult.Synthetic<HttpResponse<InputStream>>) refused).response();
      JsonNode body = new ObjectMapper().readTree(response.body());
      assertThat(response.status()).isEqualTo(429);
      assertThat(response.headers().first("retry-after")).isEmpty();
      assertThat(response.headers().first("retry-after-ms")).isEmpty();
      assertThat(body.at("/error/type").asText()).isEqualTo("tokens");
      assertThat(body.at("/error/message").asText()).isEqualTo("Request too large for gpt-4o on tokens per min (TPM):"
          + " Requested 1125899906842624. The input or output tokens must be reduced in order to run"
          + " successfully. (Tollgate)");
      assertThat(provider.requestCount()).isZero();
    }
  }

  @Test
  void anAbsurdReportedUsageIsSettledClampedAsTheLargestDebt() throws Exception {
    provider.script().next(1, Fault.malformedJson("{\"model\":\"gpt-4o\",\"choices\":[],"
        + "\"usage\":{\"prompt_tokens\":9223372036854775807,\"completion_tokens\":20}}"));
    try (Gate gate = gate("", "tokens-per-day: 100000")) {
      call(gate);
      assertThat(gate.awaitSettled(Duration.ofSeconds(30))).isTrue();

      Limits limits = gate.config().provider("openai").orElseThrow().limits().toLimits();
      Decision after = gate.limiter().reserve(Subject.of("provider", "openai"), limits, 0, 1);
      assertThat(after.allowed()).isFalse();
      assertThat(after.remainingTokens()).isZero();
      // three days of debt (the cap), then 1 token at 100000 a day: 300001 × 0.864 s
      assertThat(after.retryAfter().toMillis()).isCloseTo(259_200_864L, within(1_000L));
    }
  }

  @Test
  void aStreamedAnswerIsSettledWithItsReportedUsage() throws Exception {
    try (Gate gate = gate("", "tokens-per-day: 10000")) {
      CallResult<HttpResponse<InputStream>> result =
          gate.call(chat(provider.baseUrl(), "sk-app", STREAMED_CHAT), true, transport);
      String streamed = readBody(result);
      assertThat(gate.awaitSettled(Duration.ofSeconds(30))).isTrue();

      Limits limits = gate.config().provider("openai").orElseThrow().limits().toLimits();
      Decision after = gate.limiter().reserve(Subject.of("provider", "openai"), limits, 0, 1);
      assertThat(streamed).startsWith("data: ").endsWith("data: [DONE]\n\n");
      // 100 prompt + 20 completion tokens reported by the stream's usage chunk, then 1 to read
      // (a day's window: the refill during the test stays below one token)
      assertThat(after.remainingTokens()).isEqualTo(10_000 - 120 - 1);
    }
  }

  @Test
  void closingTheGateAppliesTheSettlesOfCallsJustEnded() throws Exception {
    try (Gate gate = gate("", "tokens-per-day: 100000")) {
      for (int i = 0; i < 10; i++) {
        call(gate);
      }
    }

    try (Gate reader = gate("", "tokens-per-day: 100000")) {
      Limits limits = reader.config().provider("openai").orElseThrow().limits().toLimits();
      Decision after = reader.limiter().reserve(Subject.of("provider", "openai"), limits, 0, 1);
      // 10 calls of 100 prompt + 20 completion tokens, then 1 to read
      assertThat(after.remainingTokens()).isEqualTo(100_000 - 10 * 120 - 1);
    }
  }

  @Test
  void aMalformedAnswerReachesTheAppUnchangedAndKeepsTheEstimateCharged() throws Exception {
    provider.script().next(1, Fault.malformedJson());
    try (Gate gate = gate("", "tokens-per-day: 10000")) {
      CallResult<HttpResponse<InputStream>> result =
          gate.call(chat(provider.baseUrl(), "sk-app", CHAT), true, transport);

      assertThat(readBody(result)).isEqualTo(Fault.MALFORMED_JSON_BODY);
      assertThat(gate.awaitSettled(Duration.ofSeconds(30))).isTrue();
      Limits limits = gate.config().provider("openai").orElseThrow().limits().toLimits();
      Decision after = gate.limiter().reserve(Subject.of("provider", "openai"), limits, 0, 1);
      assertThat(after.remainingTokens()).isLessThan(10_000 - 50).isGreaterThan(10_000 - 200);
    }
  }

  @Test
  void aStreamedBodyIsEstimatedFromTheLengthTheAppDeclared() throws Exception {
    // 1,024 output tokens by default, so room for 500 prompt tokens: bytes / 4, rounded up
    try (Gate gate = gate("", "tokens-per-minute: 1524")) {
      CallResult<HttpResponse<InputStream>> tooLong =
          gate.call(streamed(2_001), false, transport);

      SyntheticResponse refusal =
          ((CallResult.Synthetic<HttpResponse<InputStream>>) tooLong).response();
      assertThat(refusal.status()).as("501 + 1,024 tokens can never fit in 1,524").isEqualTo(429);
      assertThat(refusal.headers().first("retry-after")).isEmpty();
      assertThat(new ObjectMapper().readTree(refusal.body()).at("/error/type").asText())
          .isEqualTo("tokens");
      assertThat(provider.requestCount()).isZero();

      CallResult<HttpResponse<InputStream>> fits = gate.call(streamed(2_000), false, transport);

      assertThat(fits).isInstanceOf(CallResult.Forwarded.class);
      readBody(fits);
      assertThat(provider.requestCount()).isEqualTo(1);
    }
  }

  /** A chat request whose body the client streams, declared {@code length} bytes long. */
  private OutboundRequest streamed(long length) {
    OutboundRequest chat = chat(provider.baseUrl(), "sk-app", CHAT);
    return OutboundRequest.withStreamedBody(chat.method(), chat.uri(), chat.headers(), length);
  }

  @Test
  void onLimitWaitWaitsForRoomWithinMaxWait() throws Exception {
    try (Gate gate = gate("  on-limit: wait\n  max-wait: 2s", "requests-per-second: 1")) {
      long start = System.nanoTime();
      CallResult<HttpResponse<InputStream>> first = call(gate);

      CallResult<HttpResponse<InputStream>> second = call(gate);

      // one request per second: the second can only have been admitted by waiting for the refill
      assertThat(status(first)).isEqualTo(200);
      assertThat(status(second)).isEqualTo(200);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
      assertThat(provider.requestCount()).isEqualTo(2);
    }
  }

  @Test
  void onLimitWaitRejectsWhenRoomComesTooLate() throws Exception {
    try (Gate gate = gate("  on-limit: wait\n  max-wait: 100ms", "requests-per-minute: 1")) {
      call(gate);

      assertThat(status(call(gate))).isEqualTo(429);
      assertThat(provider.requestCount()).isEqualTo(1);
    }
  }

  @Test
  void onLimitWaitNeverSendsABodyThatCannotBeReplayedTwice() throws Exception {
    try (Gate gate = gate("  on-limit: wait\n  max-wait: 10s", "requests-per-minute: 100")) {
      provider.script().next(1, Fault.rateLimited(Duration.ofSeconds(1)));

      CallResult<HttpResponse<InputStream>> streamed =
          gate.call(chat(provider.baseUrl(), "sk-app", CHAT), false, transport);

      // the provider's own refusal, not a second send after its Retry-After
      assertThat(streamed.provider()).isEqualTo("openai");
      assertThat(status(streamed)).isEqualTo(429);
      readBody(streamed);
      assertThat(provider.requestCount()).isEqualTo(1);

      provider.script().next(1, Fault.rateLimited(Duration.ofSeconds(1)));
      CallResult<HttpResponse<InputStream>> replayable =
          gate.call(chat(provider.baseUrl(), "sk-app", CHAT), true, transport);

      // a body in memory waits out each Retry-After and goes again: refused once more, then 200
      assertThat(status(replayable)).isEqualTo(200);
      readBody(replayable);
      assertThat(provider.requestCount()).isEqualTo(3);
    }
  }

  @Test
  void shadowModeDecidesButNeverBlocks() throws Exception {
    try (Gate gate = gate("  mode: shadow", "requests-per-minute: 1")) {
      for (int i = 0; i < 3; i++) {
        assertThat(status(call(gate))).isEqualTo(200);
      }
      assertThat(provider.requestCount()).isEqualTo(3);
    }
  }

  @Test
  void aTenantBoundToTheThreadIsChargedToo() throws Exception {
    String tenants = "  tenants:\n    header: X-Tenant-Id\n    limits: { requests-per-minute: 1 }\n"
        + "    overrides:\n      premium: { requests-per-minute: 3 }";
    try (Gate gate = gate(tenants, "requests-per-minute: 100")) {
      try (Tenants.Scope scope = Tenants.bind("acme")) {
        assertThat(status(call(gate))).isEqualTo(200);
        assertThat(status(call(gate))).isEqualTo(429);
      }
      try (Tenants.Scope scope = Tenants.bind("premium")) {
        for (int i = 0; i < 3; i++) {
          assertThat(status(call(gate))).isEqualTo(200);
        }
        assertThat(status(call(gate))).isEqualTo(429);
      }
      assertThat(status(call(gate))).as("no tenant bound").isEqualTo(200);
      assertThat(new String(provider.requests().get(0).body(), StandardCharsets.UTF_8)).contains("Say hello");
    }
  }
}
