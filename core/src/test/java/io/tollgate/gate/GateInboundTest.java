package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.Decision;
import io.tollgate.llm.Headers;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.llm.TokenCounter;
import io.tollgate.testkit.redis.RedisServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link Gate#admitInbound}: the tenant checks, the inbound limits, refusals, shadow mode, the
 * failure policy and the settle, on a real in-memory limiter and on a real Redis.
 */
class GateInboundTest {

  static final String CHAT_BODY = "{\"model\":\"gpt-4o\",\"max_tokens\":50,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}";
  static final String COMPLETION = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"gpt-4o\","
      + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},"
      + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":18,"
      + "\"total_tokens\":30}}";
  /**
   * What the gate reserves for {@link #CHAT_BODY}: its estimate, read as the gate reads it once the
   * tokenizer has loaded (before, a stand-in estimates).
   */
  static final long ESTIMATE = loadedEstimate();

  private static long loadedEstimate() {
    TokenCounter.awaitLoaded(Duration.ofSeconds(30));
    return LlmProtocol.of(ProviderApi.OPENAI)
        .readRequest("/v1/chat/completions", bytes(CHAT_BODY), 1024).estimate().totalTokens();
  }

  private static TollgateConfig tenants(String top, String tenants) {
    return config("""
        tollgate:
        %s
          tenants:
            header: X-Tenant-Id
        %s
        """.formatted(top.indent(2).stripTrailing(), tenants.indent(4).stripTrailing()), Map.of());
  }

  private static final String LIMITS = """
      limits:
        algorithm: sliding-window
        requests-per-day: 2
        tokens-per-day: 10000
      """;

  private static InboundRequest chat(String tenant) {
    return InboundRequest.builder(TenantSource.header("X-Tenant-Id"))
        .tenant(Optional.ofNullable(tenant))
        .path("/v1/chat/completions")
        .body(() -> InboundBody.whole(bytes(CHAT_BODY)))
        .build();
  }

  @Test
  void admitsATenantWithRoomShowingItsLimitsAndSettlesWithTheReportedUsage() throws IOException {
    try (Gate gate = Gate.create(tenants("mode: enforce", LIMITS))) {
      Admission first = gate.admitInbound(chat("acme"));

      assertThat(first.refusal()).isEmpty();
      assertThat(first.tenant()).contains("acme");
      assertThat(first.settles()).isTrue();
      Decision decision = first.decision().orElseThrow();
      assertThat(decision.allowed()).isTrue();
      assertThat(decision.reservation().orElseThrow().tokens()).isEqualTo(ESTIMATE);
      assertThat(decision.remainingRequests()).isEqualTo(1);
      assertThat(decision.remainingTokens()).isEqualTo(10000 - ESTIMATE);
      assertThat(names(first.limitHeaders())).containsExactly("x-ratelimit-limit-requests",
          "x-ratelimit-limit-tokens", "x-ratelimit-remaining-requests", "x-ratelimit-remaining-tokens",
          "x-ratelimit-reset-requests", "x-ratelimit-reset-tokens");
      assertThat(value(first.limitHeaders(), "x-ratelimit-remaining-requests")).isEqualTo("1");
      assertThat(value(first.limitHeaders(), "x-ratelimit-remaining-tokens"))
          .isEqualTo(Long.toString(10000 - ESTIMATE));

      byte[] body = bytes(COMPLETION);
      first.onBytes(body, 0, 10, () -> "application/json");
      first.onBytes(body, 10, body.length - 10, () -> "application/json");
      first.settle(200, null);
      first.settle(200, null); // once only

      Decision second = gate.admitInbound(chat("acme")).decision().orElseThrow();
      assertThat(second.remainingTokens()).isEqualTo(10000 - 30 - ESTIMATE);
      assertThat(gate.trackedInboundTenants()).isEqualTo(1);
    }
  }

  @Test
  void refusesWithTheApisOwn429WhenTheTenantsLimitsHaveNoRoom() throws IOException {
    try (Gate gate = Gate.create(tenants("mode: enforce", LIMITS))) {
      gate.admitInbound(chat("acme")).settle(200, null);
      gate.admitInbound(chat("acme")).settle(200, null);

      Admission third = gate.admitInbound(chat("acme"));

      SyntheticResponse refusal = third.refusal().orElseThrow();
      assertThat(refusal.status()).isEqualTo(429);
      assertThat(refusal.headers().first("x-ratelimit-remaining-requests")).contains("0");
      assertThat(refusal.headers().first("retry-after")).isPresent();
      assertThat(refusal.bodyAsString()).contains("\"code\":\"rate_limit_exceeded\"");
      assertThat(third.tenant()).contains("acme");
      assertThat(third.decision().orElseThrow().allowed()).isFalse();
      assertThat(third.settles()).isFalse();
      assertThat(gate.admitInbound(chat("other")).refusal()).isEmpty(); // each tenant its own limits
    }
  }

  @Test
  void shadowModeDecidesTheSameButRefusesNothingAndShowsNoHeaders() throws IOException {
    try (Gate gate = Gate.create(tenants("mode: shadow", LIMITS))) {
      Admission first = gate.admitInbound(chat("acme"));
      assertThat(first.limitHeaders()).isEmpty();
      assertThat(first.settles()).isTrue();
      first.settle(200, null);
      gate.admitInbound(chat("acme")).settle(200, null);

      Admission third = gate.admitInbound(chat("acme"));

      assertThat(third.refusal()).isEmpty();
      assertThat(third.tenant()).contains("acme");
      assertThat(third.decision().orElseThrow().allowed()).isFalse();
      assertThat(third.limitHeaders()).isEmpty();
      assertThat(third.settles()).isFalse();
      third.settle(200, null);
      // a request without a tenant passes too, charged to nobody and unbound
      Admission nobody = gate.admitInbound(chat(null));
      assertThat(nobody.refusal()).isEmpty();
      assertThat(nobody.tenant()).isEmpty();
      assertThat(nobody.decision()).isEmpty();
    }
  }

  @Test
  void refusesARequestWithoutATenantWithAnInvalidOneOrAnUnknownOne() throws IOException {
    try (Gate gate = Gate.create(tenants("mode: enforce", LIMITS + """
        known-only: true
        overrides:
          acme: { requests-per-day: 5 }
        """))) {
      SyntheticResponse missing = gate.admitInbound(chat(null)).refusal().orElseThrow();
      assertThat(missing.status()).isEqualTo(400);
      assertThat(missing.bodyAsString()).isEqualTo("{\"error\":{\"message\":\"Missing tenant: this endpoint"
          + " needs the X-Tenant-Id header to know who is calling. (Tollgate)\",\"type\":"
          + "\"invalid_request_error\",\"param\":null,\"code\":\"missing_tenant\"}}");
      assertThat(missing.headers().first("x-tollgate")).contains("missing-tenant");

      Admission invalid = gate.admitInbound(chat("two words"));
      assertThat(invalid.refusal().orElseThrow().status()).isEqualTo(400);
      assertThat(invalid.refusal().orElseThrow().headers().first("x-tollgate")).contains("invalid-tenant");
      assertThat(invalid.tenant()).isEmpty();

      SyntheticResponse unknown = gate.admitInbound(chat("stranger")).refusal().orElseThrow();
      assertThat(unknown.status()).isEqualTo(403);
      assertThat(unknown.headers().first("x-tollgate")).contains("unknown-tenant");
      assertThat(gate.trackedInboundTenants()).isZero();

      SyntheticResponse byKey = gate.admitInbound(InboundRequest.builder(TenantSource.apiKey("Authorization"))
          .build()).refusal().orElseThrow();
      assertThat(byKey.status()).isEqualTo(401);
      assertThat(byKey.headers().first("www-authenticate")).contains("Bearer");
    }
  }

  @Test
  void aTenantWithoutATokenLimitIsNeverAskedForItsBody() throws IOException {
    try (Gate gate = Gate.create(tenants("mode: enforce", """
        overrides:
          acme: { requests-per-day: 2 }
        """))) {
      InboundBody.Reader never = () -> {
        throw new AssertionError("the body was read");
      };
      Admission admission = gate.admitInbound(InboundRequest.builder(TenantSource.header("X-Tenant-Id"))
          .tenant(Optional.of("acme")).body(never).build());
      assertThat(admission.decision().orElseThrow().reservation().orElseThrow().tokens()).isZero();
      admission.settle(200, null);

      // no limits by default: any other tenant is only bound
      Admission unlimited = gate.admitInbound(InboundRequest.builder(TenantSource.header("X-Tenant-Id"))
          .tenant(Optional.of("free-for-all")).body(never).build());
      assertThat(unlimited.tenant()).contains("free-for-all");
      assertThat(unlimited.decision()).isEmpty();
      assertThat(unlimited.settles()).isFalse();
    }
  }

  @Test
  void settlesNothingForAFailureAnErrorStatusOrABodilessRequestAndTheEstimateWithoutUsage()
      throws IOException {
    try (Gate gate = Gate.create(tenants("mode: enforce", """
        limits:
          algorithm: sliding-window
          requests-per-day: 100
          tokens-per-day: 10000
        """))) {
      gate.admitInbound(chat("acme")).settle(200, new IOException("the client went away"));
      gate.admitInbound(chat("acme")).settle(500, null);
      gate.admitInbound(InboundRequest.builder(TenantSource.header("X-Tenant-Id"))
          .tenant(Optional.of("acme")).bodiless(true).build()).settle(200, null);
      Decision afterNothing = gate.admitInbound(chat("acme")).decision().orElseThrow();
      // three refunded; the bodiless one, unread, reserved default-max-output + 128 and settled 0
      assertThat(afterNothing.remainingTokens()).isEqualTo(10000 - ESTIMATE);

      gate.admitInbound(chat("acme")).settle(200, null); // no usage reported: its estimate
      Decision after = gate.admitInbound(chat("acme")).decision().orElseThrow();
      assertThat(after.remainingTokens()).isEqualTo(10000 - 3 * ESTIMATE);
    }
  }

  @Test
  void withoutATenantsSectionThereIsNothingToChargeInboundRequestsTo() {
    try (Gate gate = Gate.create(config("tollgate:\n  mode: enforce\n", Map.of()))) {
      assertThatThrownBy(() -> gate.admitInbound(chat("acme")))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("tollgate.tenants is required to admit inbound requests: it says who each"
              + " request is charged to and what it may spend");
    }
  }

  @Test
  void onRedisAdmitsRefusesAndSettlesAsInMemory() throws IOException {
    try (RedisServer redis = RedisServer.start();
        Gate gate = Gate.create(tenants("redis:\n  url: " + redis.uri(), LIMITS))) {
      Admission first = gate.admitInbound(chat("acme"));
      assertThat(first.decision().orElseThrow().degraded()).isFalse();
      byte[] body = bytes(COMPLETION);
      first.onBytes(body, 0, body.length, () -> "application/json");
      first.settle(200, null);

      Decision second = gate.admitInbound(chat("acme")).decision().orElseThrow();
      assertThat(second.remainingRequests()).isZero();
      assertThat(second.remainingTokens()).isEqualTo(10000 - 30 - ESTIMATE);
      assertThat(gate.admitInbound(chat("acme")).refusal().orElseThrow().status()).isEqualTo(429);
    }
  }

  @Test
  void failOpenAdmitsThroughTheLocalLimiterWhileRedisCannotAnswer() throws IOException {
    try (RedisServer redis = RedisServer.start();
        Gate gate = Gate.create(tenants("redis:\n  url: " + redis.uri() + "\n  on-failure: fail-open", LIMITS))) {
      assertThat(gate.admitInbound(chat("acme")).decision().orElseThrow().degraded()).isFalse();
      redis.stop();

      Admission admission = gate.admitInbound(chat("acme"));

      assertThat(admission.refusal()).isEmpty();
      Decision decision = admission.decision().orElseThrow();
      assertThat(decision.allowed()).isTrue();
      assertThat(decision.degraded()).isTrue();
      assertThat(admission.settles()).isTrue();
      admission.settle(200, null);
    }
  }

  @Test
  void failClosedRefusesWhileRedisCannotAnswer() throws IOException {
    try (RedisServer redis = RedisServer.start();
        Gate gate = Gate.create(tenants("redis:\n  url: " + redis.uri() + "\n  on-failure: fail-closed", LIMITS))) {
      assertThat(gate.admitInbound(chat("acme")).decision().orElseThrow().allowed()).isTrue();
      redis.stop();

      Admission admission = gate.admitInbound(chat("acme"));

      assertThat(admission.refusal().orElseThrow().status()).isEqualTo(429);
      assertThat(admission.tenant()).contains("acme");
      Decision decision = admission.decision().orElseThrow();
      assertThat(decision.allowed()).isFalse();
      assertThat(decision.degraded()).isTrue();
    }
  }

  @Test
  void modeOffAdmitsEveryRequestUnbound() throws IOException {
    try (Gate gate = Gate.create(tenants("mode: off", LIMITS))) {
      Admission admission = gate.admitInbound(chat(null));
      assertThat(admission.refusal()).isEmpty();
      assertThat(admission.tenant()).isEmpty();
      assertThat(admission.settles()).isFalse();
    }
  }

  private static List<String> names(List<Headers.Field> fields) {
    return fields.stream().map(Headers.Field::name).toList();
  }

  private static String value(List<Headers.Field> fields, String name) {
    return fields.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow().value();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
