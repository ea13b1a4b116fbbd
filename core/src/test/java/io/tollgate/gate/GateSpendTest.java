package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spend budgets through the gate ({@code usd-per-day}, {@code usd-per-month}), on every backend:
 * calls reserve their priced estimate, settle at their real cost, and a spent budget is refused
 * with OpenAI's {@code insufficient_quota}.
 *
 * <p>The model {@code budget-model} costs nothing per input token and 20 USD per million output
 * tokens; the mock reports 5 output tokens and each request asks for at most 5, so a call is
 * estimated and settled at exactly 100 micro-dollars, whatever its prompt.
 */
class GateSpendTest {

  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));
  private MockLlmServer provider;

  @BeforeEach
  void start() {
    LimitBackends.flush();
    provider = MockLlmServer.start().usage(10, 5);
  }

  @AfterEach
  void stop() {
    provider.close();
  }

  private Gate gate(String backend, String providerLimits, String tenantLimits) {
    String redisKeys = LimitBackends.yaml(backend);
    return Gate.create(config("tollgate:\n" + redisKeys + """
          prices:
            budget-model: { input: 0, output: 20 }
            cached-model: { input: 10, cached-input: 2, output: 20 }
          providers:
            openai:
              base-url: %s
              limits: { %s }
          tenants:
            header: X-Tenant-Id
            limits: { %s }
        """.formatted(provider.baseUrl(), providerLimits, tenantLimits), Map.of()));
  }

  private CallResult<HttpResponse<InputStream>> call(Gate gate, String tenant) throws Exception {
    OutboundRequest request = OutboundRequest.of("POST",
        URI.create(provider.baseUrl() + "/v1/chat/completions"),
        Headers.of("Authorization", "Bearer sk-app", "Content-Type", "application/json"),
        ("{\"model\":\"budget-model\",\"max_tokens\":5,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}").getBytes(StandardCharsets.UTF_8));
    return send(gate, request, tenant);
  }

  private CallResult<HttpResponse<InputStream>> send(Gate gate, OutboundRequest request,
      String tenant) throws Exception {
    try (Tenants.Scope bound = Tenants.bind(tenant)) {
      CallResult<HttpResponse<InputStream>> result = gate.call(request, true, transport);
      if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
        readBody(result);
      }
      // settled before the next call decides, as a later call in a real app would find it
      assertThat(gate.awaitSettled(Duration.ofSeconds(10))).isTrue();
      return result;
    }
  }

  private List<Integer> calls(Gate gate, String tenant, int count) throws Exception {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      statuses.add(status(call(gate, tenant)));
    }
    return statuses;
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void aSpentDailyBudgetIsRefusedWithInsufficientQuotaUntilMidnightUtc(String backend)
      throws Exception {
    try (Gate gate = gate(backend, "requests-per-minute: 1000", "usd-per-day: 0.00045")) {
      List<Integer> statuses = calls(gate, "acme", 4);

      CallResult<HttpResponse<InputStream>> refused = call(gate, "acme");

      // 4 calls of 100 µUSD; the fifth would leave the budget 50 µUSD short
      assertThat(statuses).containsExactly(200, 200, 200, 200);
      SyntheticResponse response = ((CallResult.Synthetic<HttpResponse<InputStream>>) refused).response();
      JsonNode body = new ObjectMapper().readTree(response.body());
      assertThat(response.status()).isEqualTo(429);
      assertThat(body.at("/error/code").asText()).isEqualTo("insufficient_quota");
      assertThat(body.at("/error/type").asText()).isEqualTo("insufficient_quota");
      String tomorrow = LocalDate.now(ZoneOffset.UTC).plusDays(1) + "T00:00:00Z";
      assertThat(body.at("/error/message").asText()).isEqualTo("You exceeded your current quota:"
          + " the spend budget of 0.00045 USD per day (UTC) is used up (Remaining 0.00005 USD,"
          + " Requested 0.0001 USD); it starts again at " + tomorrow + ". (Tollgate)");
      assertThat(response.headers().first("x-tollgate")).contains("budget-spent");
      long untilMidnight = Duration.between(Instant.now(), Instant.parse(tomorrow)).toSeconds();
      assertThat(Long.parseLong(response.headers().first("retry-after").orElseThrow()))
          .isBetween(untilMidnight - 5, untilMidnight + 5);
      assertThat(provider.requestCount()).isEqualTo(4);
      // another tenant's budget is its own
      assertThat(status(call(gate, "globex"))).isEqualTo(200);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void aProvidersMonthlyBudgetHoldsForEveryTenantTogether(String backend) throws Exception {
    try (Gate gate = gate(backend, "usd-per-month: 0.0003", "requests-per-minute: 1000")) {
      List<Integer> statuses = List.of(status(call(gate, "a")), status(call(gate, "b")),
          status(call(gate, "c")), status(call(gate, "d")));

      assertThat(statuses).containsExactly(200, 200, 200, 429);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void aCallSettlesAtItsRealCostNotItsEstimate(String backend) throws Exception {
    // asks for 50 output tokens (estimated 1,000 µUSD), uses 5 (100 µUSD)
    try (Gate gate = gate(backend, "requests-per-minute: 1000", "usd-per-day: 0.00115")) {
      OutboundRequest large = OutboundRequest.of("POST",
          URI.create(provider.baseUrl() + "/v1/chat/completions"),
          Headers.of("Authorization", "Bearer sk-app", "Content-Type", "application/json"),
          ("{\"model\":\"budget-model\",\"max_tokens\":50,"
              + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}").getBytes(StandardCharsets.UTF_8));
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        statuses.add(status(send(gate, large, "acme")));
      }

      // 1,150 budget: after one call settled at 100, 1,050 is left, room for a 1,000 estimate;
      // after two, 950 is not (charged at their estimates, the second would not have fit)
      assertThat(statuses).containsExactly(200, 200, 429);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void cachedInputIsSettledAtItsOwnPrice(String backend) throws Exception {
    // 100 prompt tokens of which 40 from the cache, 5 output: 60 × 10 + 40 × 2 + 5 × 20 = 780 µUSD
    provider.usage(100, 5).cachedTokens(40);
    try (Gate gate = gate(backend, "requests-per-minute: 1000", "usd-per-day: 0.001")) {
      int first = status(send(gate, chatOf("cached-model", 5), "acme"));

      // estimated at the prompt × 10 + 20 × 20 µUSD: more than the 220 left, less than the budget
      CallResult<HttpResponse<InputStream>> refused = send(gate, chatOf("cached-model", 20), "acme");

      assertThat(first).isEqualTo(200);
      SyntheticResponse response = ((CallResult.Synthetic<HttpResponse<InputStream>>) refused).response();
      assertThat(new ObjectMapper().readTree(response.body()).at("/error/message").asText())
          .contains("(Remaining 0.00022 USD, Requested ");
    }
  }

  private OutboundRequest chatOf(String model, int maxTokens) {
    return OutboundRequest.of("POST", URI.create(provider.baseUrl() + "/v1/chat/completions"),
        Headers.of("Authorization", "Bearer sk-app", "Content-Type", "application/json"),
        ("{\"model\":\"" + model + "\",\"max_tokens\":" + maxTokens
            + ",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}")
            .getBytes(StandardCharsets.UTF_8));
  }
}
