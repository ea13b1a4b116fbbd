package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.Subject;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The tenant bound to the thread, charged by the gate (outbound) as the filter charges it inbound:
 * folded with case-insensitive, keyed with hash-key, and at most max-tracked on their own.
 */
class GateTenantIdsTest {

  private static final String HASH_KEY = "0123456789abcdef-tenant-hash-key";
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

  /** A provider without limits; tenants with one request a minute and {@code more}. */
  private Gate gate(String more) {
    return Gate.create(config("""
        tollgate:
          redis:
            url: %s
          providers:
            openai:
              base-url: %s
          tenants:
            header: X-Tenant-Id
            limits: { requests-per-minute: 1 }
        %s""".formatted(redis.uri(), provider.baseUrl(), more.indent(4)), Map.of()));
  }

  private int callAs(Gate gate, String tenant) throws Exception {
    try (Tenants.Scope bound = Tenants.bind(tenant)) {
      var result = gate.call(chat(provider.baseUrl(), "sk-app", CHAT), true, transport);
      if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
        readBody(result);
      }
      return status(result);
    }
  }

  private static Set<String> keys() {
    try (Jedis jedis = redis.jedis()) {
      // the limiter's keys: not the fleet's heartbeats (tg:{fleet}:*), which every gate on Redis beats
      return jedis.keys("*").stream().filter(key -> !key.startsWith("tg:{fleet}:"))
          .collect(java.util.stream.Collectors.toSet());
    }
  }

  @Test
  void caseInsensitiveChargesAcmeAndACMEToOneBucket() throws Exception {
    try (Gate gate = gate("case-insensitive: true\n")) {
      assertThat(callAs(gate, "acme")).isEqualTo(200);
      assertThat(callAs(gate, "ACME")).isEqualTo(429);
    }
    assertThat(keys()).containsExactly("tg:" + Subject.of("tenant", "acme").hashTag() + ":s");
  }

  @Test
  void aHashKeyKeysTheOutboundKey() throws Exception {
    try (Gate gate = gate("hash-key: " + HASH_KEY + "\n")) {
      assertThat(callAs(gate, "acme")).isEqualTo(200);
    }
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(HASH_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    String hash = Base64.getUrlEncoder().withoutPadding().encodeToString(
        Arrays.copyOf(mac.doFinal("tenant\u0000acme".getBytes(StandardCharsets.UTF_8)), 15));

    assertThat(keys()).containsExactly("tg:{tenant:" + hash + "}:s");
  }

  @Test
  void beyondMaxTrackedNewTenantsShareTheOverflowButListedOnesNever() throws Exception {
    try (Gate gate = gate("max-tracked: 2\noverrides:\n  premium: { requests-per-minute: 1 }\n")) {
      assertThat(callAs(gate, "a")).isEqualTo(200);
      assertThat(callAs(gate, "b")).isEqualTo(200);
      assertThat(callAs(gate, "c")).as("the overflow's one request").isEqualTo(200);
      assertThat(callAs(gate, "d")).as("the overflow is spent").isEqualTo(429);
      assertThat(callAs(gate, "premium")).as("listed: its own bucket").isEqualTo(200);
    }
    assertThat(keys()).containsExactlyInAnyOrder(
        "tg:" + Subject.of("tenant", "a").hashTag() + ":s",
        "tg:" + Subject.of("tenant", "b").hashTag() + ":s",
        "tg:{tenant:~overflow}:s",
        "tg:" + Subject.of("tenant", "premium").hashTag() + ":s");
    assertThat(provider.requestCount()).isEqualTo(4);
  }
}
