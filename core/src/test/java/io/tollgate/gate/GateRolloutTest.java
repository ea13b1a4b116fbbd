package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.Mode;
import io.tollgate.config.ModeSetting;
import io.tollgate.llm.Headers;
import io.tollgate.overrides.OverrideTarget;
import io.tollgate.testkit.llm.MockLlmServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rollout as operators do it: a canary enforces for its share of the tenants and shadows the
 * others; advisory tells inbound clients; the mode and share change live.
 */
class GateRolloutTest {

  private MockLlmServer provider;
  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));

  @BeforeEach
  void start() {
    provider = MockLlmServer.start().usage(10, 5);
  }

  @AfterEach
  void stop() {
    provider.close();
  }

  private Gate gate(String mode) {
    return Gate.create(config("""
        tollgate:
          %s
          providers:
            openai:
              base-url: %s
          tenants:
            header: X-Tenant-Id
            limits: { requests-per-day: 1 }
        """.formatted(mode, provider.baseUrl()), Map.of()));
  }

  private List<Integer> calls(Gate gate, String tenant, int count) throws Exception {
    return GateTestSupport.statuses(gate, transport, chat(provider.baseUrl(), "sk-app", CHAT),
        tenant, count);
  }

  /** A tenant that a canary of {@code percent} enforces ({@code in}) or shadows. */
  private static String tenant(int percent, boolean in) {
    ModeSetting canary = new ModeSetting(Mode.CANARY, percent);
    return IntStream.range(0, 1000).mapToObj(i -> "t" + i)
        .filter(t -> (canary.forTenant(Optional.of(t)) == Mode.ENFORCE) == in)
        .findFirst().orElseThrow();
  }

  @Test
  void aCanaryEnforcesForItsTenantsAndOnlyReportsForTheOthers() throws Exception {
    String in = tenant(30, true);
    String out = tenant(30, false);
    try (Gate gate = gate("mode: canary\n  canary-percent: 30")) {
      assertThat(calls(gate, in, 2)).containsExactly(200, 429);
      assertThat(calls(gate, out, 2)).containsExactly(200, 200);
      assertThat(gate.activity().recentDecisions()).extracting(Activity.DecisionEvent::decision)
          .contains("shadow_denied");
    }
  }

  @Test
  void theModeAndTheShareChangeLive() throws Exception {
    String out = tenant(30, false);
    try (Gate gate = gate("mode: canary\n  canary-percent: 30")) {
      assertThat(calls(gate, out, 2)).containsExactly(200, 200);

      gate.overrides().set(OverrideTarget.mode(), Map.of("mode", "canary", "canary-percent", "100"),
          "ops");

      assertThat(gate.mode()).isEqualTo(new ModeSetting(Mode.CANARY, 100));
      assertThat(calls(gate, out, 1)).containsExactly(429);
      gate.overrides().set(OverrideTarget.mode(), Map.of("mode", "shadow"), "ops");
      assertThat(calls(gate, out, 1)).containsExactly(200);
      gate.overrides().remove(OverrideTarget.mode(), "ops");
      assertThat(gate.mode()).isEqualTo(new ModeSetting(Mode.CANARY, 30));
    }
  }

  @Test
  void advisoryServesEveryInboundRequestAndTellsTheClientWhatEnforcingWouldAnswer()
      throws Exception {
    try (Gate gate = gate("mode: advisory")) {
      Admission first = gate.admitInbound(inbound("acme"));
      first.settle(200, null);
      Admission second = gate.admitInbound(inbound("acme"));

      assertThat(first.refusal()).isEmpty();
      assertThat(first.limitHeaders()).extracting(Headers.Field::name)
          .contains("x-ratelimit-remaining-requests").doesNotContain("Tollgate-Advisory");
      assertThat(second.refusal()).isEmpty();
      assertThat(second.limitHeaders()).filteredOn(f -> f.name().equals("Tollgate-Advisory"))
          .singleElement().satisfies(f -> assertThat(f.value()).startsWith("would-refuse; retry-after="));
      assertThat(calls(gate, "acme", 2)).containsExactly(200, 200);
    }
  }

  private static InboundRequest inbound(String tenant) {
    return InboundRequest.builder(TenantSource.header("X-Tenant-Id"))
        .tenant(Optional.of(tenant))
        .path("/v1/chat/completions")
        .body(() -> InboundBody.whole(CHAT.getBytes(StandardCharsets.UTF_8)))
        .build();
  }
}
