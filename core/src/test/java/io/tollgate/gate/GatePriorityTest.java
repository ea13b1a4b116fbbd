package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Priority classes through the gate, on a real Redis: a class named by the call's header, or its
 * tenant's, may use only its share of the provider's and the tenant's limits.
 */
class GatePriorityTest {

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
    provider = MockLlmServer.start().usage(10, 5);
  }

  @AfterEach
  void stop() {
    provider.close();
  }

  private Gate gate(String providerLimits, String tenantLimits) {
    return Gate.create(config("""
        tollgate:
          redis:
            url: %s
          providers:
            openai:
              base-url: %s
              limits: { %s }
          tenants:
            header: X-Tenant-Id
            limits: { %s }
          priority:
            header: X-Priority
            tenants: { nightly-etl: batch }
        """.formatted(redis.uri(), provider.baseUrl(), providerLimits, tenantLimits), Map.of()));
  }

  private List<Integer> calls(Gate gate, String tenant, String priority, int count) throws Exception {
    Headers headers = priority == null
        ? Headers.of("Authorization", "Bearer sk-app", "Content-Type", "application/json")
        : Headers.of("Authorization", "Bearer sk-app", "Content-Type", "application/json",
            "X-Priority", priority);
    OutboundRequest request = OutboundRequest.of("POST",
        URI.create(provider.baseUrl() + "/v1/chat/completions"), headers,
        CHAT.getBytes(StandardCharsets.UTF_8));
    return GateTestSupport.statuses(gate, transport, request, tenant, count);
  }

  @Test
  void batchStopsAtSeventyPercentOfTheProvidersLimitDefaultAtNinetyCriticalUsesTheRest()
      throws Exception {
    try (Gate gate = gate("requests-per-day: 10", "requests-per-day: 1000")) {
      assertThat(calls(gate, "a", "batch", 8)).containsExactly(200, 200, 200, 200, 200, 200, 200, 429);
      assertThat(calls(gate, "b", null, 3)).containsExactly(200, 200, 429);
      assertThat(calls(gate, "c", "critical", 2)).containsExactly(200, 429);
    }
    assertThat(provider.requests()).hasSize(10);
  }

  @Test
  void aTenantsClassAppliesToItsCallsThatNameNoneAndToItsOwnLimits() throws Exception {
    try (Gate gate = gate("requests-per-day: 1000", "requests-per-day: 10")) {
      // nightly-etl is batch: 7 of its own 10
      assertThat(calls(gate, "nightly-etl", null, 8)).containsExactly(200, 200, 200, 200, 200, 200,
          200, 429);
      // a header naming a class wins over the tenant's
      assertThat(calls(gate, "nightly-etl", "critical", 4)).containsExactly(200, 200, 200, 429);
    }
  }
}
