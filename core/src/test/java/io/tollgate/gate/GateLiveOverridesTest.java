package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.overrides.OverrideTarget;
import io.tollgate.overrides.Overrides;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Limits changed at runtime through one gate are in force on another gate sharing its Redis at
 * its next poll, exactly; removing them brings the configuration's back.
 */
class GateLiveOverridesTest {

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

  private Gate gate() {
    return Gate.create(config("""
        tollgate:
          redis:
            url: %s
          providers:
            openai:
              base-url: %s
          tenants:
            header: X-Tenant-Id
            limits: { requests-per-day: 2 }
        """.formatted(redis.uri(), provider.baseUrl()), Map.of()));
  }

  private List<Integer> calls(Gate gate, String tenant, int count) throws Exception {
    return GateTestSupport.statuses(gate, transport, chat(provider.baseUrl(), "sk-app", CHAT),
        tenant, count);
  }

  /** Waits for {@code gate} to hold {@code version}; how long it took. */
  private static Duration awaitVersion(Gate gate, long version) throws InterruptedException {
    long from = System.nanoTime();
    while (gate.overrides().current().version() < version
        && System.nanoTime() - from < Duration.ofSeconds(10).toNanos()) {
      Thread.sleep(20);
    }
    assertThat(gate.overrides().current().version()).isEqualTo(version);
    return Duration.ofNanos(System.nanoTime() - from);
  }

  @Test
  void aTenantRaisedOnOneGateIsRaisedOnTheOtherAtItsNextPoll() throws Exception {
    try (Gate one = gate(); Gate two = gate()) {
      assertThat(calls(one, "acme", 3)).containsExactly(200, 200, 429);

      one.overrides().set(OverrideTarget.tenant("acme"), Map.of("requests-per-day", "5"), "alice");
      Duration pickedUp = awaitVersion(two, 1);

      assertThat(pickedUp).isLessThanOrEqualTo(Overrides.POLL.multipliedBy(3));
      // a changed capacity starts its own count: five more, on either gate, then no more
      assertThat(calls(two, "acme", 3)).containsExactly(200, 200, 200);
      assertThat(calls(one, "acme", 3)).containsExactly(200, 200, 429);
      // other tenants keep the configuration's limit
      assertThat(calls(two, "other", 3)).containsExactly(200, 200, 429);
    }
  }

  @Test
  void removingTheOverrideBringsTheConfigurationsLimitBack() throws Exception {
    try (Gate one = gate(); Gate two = gate()) {
      one.overrides().set(OverrideTarget.tenant("acme"), Map.of("requests-per-day", "1"), "alice");
      awaitVersion(two, 1);
      assertThat(calls(two, "acme", 2)).containsExactly(200, 429);

      assertThat(two.overrides().remove(OverrideTarget.tenant("acme"), "bob")).isPresent();
      awaitVersion(one, 2);

      assertThat(calls(one, "acme", 3)).containsExactly(200, 200, 429);
    }
  }

  @Test
  void aProvidersAndAModelsLimitsAreSetLiveToo() throws Exception {
    try (Gate one = gate(); Gate two = gate()) {
      one.overrides().set(OverrideTarget.provider("openai"), Map.of("requests-per-day", "3"), "ops");
      one.overrides().set(OverrideTarget.model("openai", "gpt-4o"), Map.of("requests-per-day", "1"),
          "ops");
      awaitVersion(two, 2);

      // gpt-4o (the chat's model): one a day, on both gates together
      assertThat(calls(two, "t1", 1)).containsExactly(200);
      assertThat(calls(one, "t2", 1)).containsExactly(429);
      assertThat(two.accountCharge("openai", java.util.Optional.of("gpt-4o")).orElseThrow()
          .limits().all()).hasSize(2);
    }
  }

  @Test
  void withoutRedisAnOverrideHoldsForThisGateAlone() throws Exception {
    try (Gate gate = Gate.create(config("""
        tollgate:
          providers:
            openai:
              base-url: %s
          tenants:
            header: X-Tenant-Id
            limits: { requests-per-day: 1 }
        """.formatted(provider.baseUrl()), Map.of()))) {
      gate.overrides().set(OverrideTarget.tenant("acme"), Map.of("requests-per-day", "2"), "alice");

      assertThat(gate.overrides().current().version()).isEqualTo(1);
      assertThat(calls(gate, "acme", 3)).containsExactly(200, 200, 429);
    }
  }
}
