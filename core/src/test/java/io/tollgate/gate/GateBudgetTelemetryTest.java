package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static io.tollgate.telemetry.TollgateAttributes.BUDGET_PERIOD;
import static io.tollgate.telemetry.TollgateAttributes.MODEL;
import static io.tollgate.telemetry.TollgateAttributes.PROVIDER;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.tollgate.telemetry.Telemetry;
import io.tollgate.telemetry.TelemetryCapture;
import io.tollgate.telemetry.TelemetryNames;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code tollgate.budget.used} read back from an in-memory SDK: the part of each provider's and
 * model's spend budget a real call used, read from the limiter when the gauge is collected.
 *
 * <p>{@code budget-model} costs nothing per input token and 20 USD per million output tokens; the
 * mock reports 5 output tokens, so the call costs exactly 100 micro-dollars.
 */
class GateBudgetTelemetryTest {

  private static final String CALL = "{\"model\":\"budget-model\",\"max_tokens\":5,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}";

  private final TelemetryCapture capture = new TelemetryCapture();
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
    capture.close();
  }

  private String yaml(String redis) {
    return """
        tollgate:
        %s
          prices:
            budget-model: { input: 0, output: 20 }
          providers:
            openai:
              base-url: %s
              limits: { usd-per-day: 1.00, usd-per-month: 4.00 }
              models:
                budget-model: { usd-per-day: 0.50 }
                "*": { usd-per-day: 9 }
          tenants:
            header: X-Tenant-Id
            limits: { usd-per-day: 2 }
        """.formatted(redis, provider.baseUrl());
  }

  @ParameterizedTest
  @ValueSource(strings = {LimitBackends.MEMORY, LimitBackends.REDIS})
  void eachConfiguredBudgetReadsWhatTheCallCostOverItsSize(String backend) throws Exception {
    try (Gate gate = Gate.builder(config(yaml(LimitBackends.yaml(backend)), Map.of()))
        .openTelemetry(capture.sdk()).build()) {
      assertThat(call(gate, "acme")).isEqualTo(200);

      // 100 µUSD of 1 USD a day, 4 USD a month, and the model's 0.50 USD a day; neither the
      // tenant's budget nor the "*" models' are reported
      assertThat(budgetPoints()).isEqualTo(Map.of(
          Attributes.of(PROVIDER, "openai", BUDGET_PERIOD, "day"), 0.0001,
          Attributes.of(PROVIDER, "openai", BUDGET_PERIOD, "month"), 0.000025,
          Attributes.of(PROVIDER, "openai", MODEL, "budget-model", BUDGET_PERIOD, "day"), 0.0002));
      MetricData metric = budgetMetric();
      assertThat(metric.getUnit()).isEqualTo("1");
      assertThat(metric.getInstrumentationScopeInfo().getName()).isEqualTo(TelemetryNames.SCOPE);
    }
  }

  @Test
  void aSecondGateOnTheSameConfigurationAddsNoSeries() throws Exception {
    Telemetry shared = capture.telemetry();
    try (Gate first = Gate.builder(config(yaml(""), Map.of())).telemetry(shared).build();
        Gate second = Gate.builder(config(yaml(""), Map.of())).telemetry(shared).build()) {
      assertThat(call(first, "acme")).isEqualTo(200);
      assertThat(call(second, "acme")).isEqualTo(200);

      // the first gate's limiter answers for the series; the second's holds its own call
      assertThat(budgetPoints()).hasSize(3)
          .containsEntry(Attributes.of(PROVIDER, "openai", BUDGET_PERIOD, "day"), 0.0001);
    }
  }

  @Test
  void withoutRedisTheBudgetsAreNotReportedRatherThanMisread() throws Exception {
    RedisServer redis = RedisServer.start();
    try (Gate gate = Gate.builder(config(yaml("  redis: { url: " + redis.uri() + " }"),
        Map.of())).openTelemetry(capture.sdk()).build()) {
      assertThat(call(gate, "acme")).isEqualTo(200);
      assertThat(budgetPoints()).hasSize(3);

      redis.stop();
      Thread.sleep(SpendBudgets.FRESH.toMillis()); // past the last read

      assertThat(budgetPoints()).isEmpty();
    } finally {
      redis.close();
    }
  }

  private int call(Gate gate, String tenant) throws Exception {
    try (Tenants.Scope bound = Tenants.bind(tenant)) {
      CallResult<HttpResponse<InputStream>> result =
          gate.call(chat(provider.baseUrl(), "sk-app", CALL), true, transport);
      if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
        readBody(result);
      }
      // settled before the gauge is read, as a later collection would find it
      assertThat(gate.awaitSettled(Duration.ofSeconds(10))).isTrue();
      return status(result);
    }
  }

  private MetricData budgetMetric() {
    return capture.metrics().stream()
        .filter(metric -> metric.getName().equals(TelemetryNames.BUDGET_USED_METRIC))
        .findFirst().orElseThrow();
  }

  /** Every point of {@code tollgate.budget.used}, by its attributes; empty when there is none. */
  private Map<Attributes, Double> budgetPoints() {
    return capture.metrics().stream()
        .filter(metric -> metric.getName().equals(TelemetryNames.BUDGET_USED_METRIC))
        .flatMap(metric -> metric.getDoubleGaugeData().getPoints().stream())
        .collect(Collectors.toMap(DoublePointData::getAttributes, DoublePointData::getValue));
  }
}
