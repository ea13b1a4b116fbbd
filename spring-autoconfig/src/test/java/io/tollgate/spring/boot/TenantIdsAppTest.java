package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.ConfigException;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.Subject;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.testkit.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import redis.clients.jedis.Jedis;

/**
 * The tenant keys in Spring, users inside tenants included: bound from {@code tollgate.tenants.*}
 * (a short hash key, or user limits without a user header, fail start-up naming the key), and
 * enforced by the starter's filter in a real Boot app on Tomcat with a real Redis.
 */
class TenantIdsAppTest {

  static final RedisServer redis = RedisServer.start();
  static final String HASH_KEY = "0123456789abcdef-tenant-hash-key";
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";

  private final HttpClient http = HttpClient.newHttpClient();
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurationTest.TOLLGATE)
      .withPropertyValues("tollgate.tenants.header=X-Tenant-Id", "tollgate.tenants.limits.requests-per-hour=1");

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @BeforeEach
  void freshLimits() {
    redis.flushAll();
  }

  @Test
  void theTenantKeysBindOntoTheCoresConfig() {
    runner.withPropertyValues("tollgate.tenants.case-insensitive=true", "tollgate.tenants.known-only=true",
            "tollgate.tenants.max-tracked=500", "tollgate.tenants.hash-key=" + HASH_KEY,
            "tollgate.tenants.overrides.Premium.requests-per-hour=5")
        .run(context -> {
          assertThat(context).hasNotFailed();
          TenantsConfig tenants = context.getBean(TollgateConfig.class).tenants().orElseThrow();
          assertThat(tenants.caseInsensitive()).isTrue();
          assertThat(tenants.knownOnly()).isTrue();
          assertThat(tenants.maxTracked()).isEqualTo(500);
          assertThat(tenants.hashKey().orElseThrow().reveal()).isEqualTo(HASH_KEY);
          assertThat(tenants.knownTenants()).containsExactly("premium");
        });
  }

  @Test
  void theUserKeysBindOntoTheCoresConfig() {
    runner.withPropertyValues("tollgate.tenants.user-header=X-User-Id",
            "tollgate.tenants.user-limits.requests-per-day=20", "tollgate.tenants.user-limits.tokens-per-day=5000",
            "tollgate.tenants.user-limits.algorithm=sliding-window")
        .run(context -> {
          assertThat(context).hasNotFailed();
          TenantsConfig tenants = context.getBean(TollgateConfig.class).tenants().orElseThrow();
          assertThat(tenants.userHeader()).contains("X-User-Id");
          assertThat(tenants.userLimits().requestsPerDay()).hasValue(20);
          assertThat(tenants.userLimits().tokensPerDay()).hasValue(5000);
          assertThat(tenants.userLimits().algorithm()).isEqualTo(Algorithm.SLIDING_WINDOW);
          assertThat(tenants.limits().requestsPerHour()).hasValue(1);
        });
  }

  @Test
  void userLimitsWithoutAUserHeaderFailStartUpNamingTheKey() {
    runner.withPropertyValues("tollgate.tenants.user-limits.requests-per-day=20").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .isInstanceOf(ConfigException.class)
          .hasMessage("tollgate.tenants.user-header is required when user-limits is set: it says who the user is");
    });
    runner.withPropertyValues("tollgate.tenants.user-header=X-User-Id",
        "tollgate.tenants.user-limits.requests-per-day=0").run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause()
              .hasMessage("tollgate.tenants.user-limits.requests-per-day must be > 0, was 0");
        });
  }

  @Test
  void theDefaultsAreTheCores() {
    runner.run(context -> {
      TenantsConfig tenants = context.getBean(TollgateConfig.class).tenants().orElseThrow();
      assertThat(tenants.caseInsensitive()).isFalse();
      assertThat(tenants.knownOnly()).isFalse();
      assertThat(tenants.maxTracked()).isEqualTo(100_000);
      assertThat(tenants.hashKey()).isEmpty();
      assertThat(tenants.userHeader()).isEmpty();
      assertThat(tenants.userLimits().isEmpty()).isTrue();
    });
  }

  @Test
  void aShortHashKeyFailsStartUpNamingTheKeyAndNotTheSecret() {
    runner.withPropertyValues("tollgate.tenants.hash-key=only-15-bytes!!").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .isInstanceOf(ConfigException.class)
          .hasMessage("tollgate.tenants.hash-key must be at least 16 bytes (32 random bytes, such as"
              + " `openssl rand -base64 32`, are best), was 15 bytes")
          .hasMessageNotContaining("only-15");
    });
  }

  @Test
  void aZeroMaxTrackedFailsStartUpNamingTheKey() {
    runner.withPropertyValues("tollgate.tenants.max-tracked=0").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .hasMessage("tollgate.tenants.max-tracked must be > 0, was 0");
    });
  }

  @Test
  void theStartersFilterRefusesAnInvalidIdWith400WithoutEchoingIt() throws Exception {
    try (ConfigurableApplicationContext app = run()) {
      HttpResponse<String> tooLong = chat(app, "t".repeat(129));
      HttpResponse<String> spaced = chat(app, "acme corp");
      HttpResponse<String> fine = chat(app, "acme");

      for (HttpResponse<String> refused : List.of(tooLong, spaced)) {
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).isEqualTo("{\"error\":{\"message\":\"Invalid tenant: the X-Tenant-Id header must be"
            + " 1 to 128 printable ASCII characters, without spaces or control characters. (Tollgate)\","
            + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_tenant\"}}");
      }
      assertThat(fine.statusCode()).isEqualTo(200);
      assertThat(keys()).containsExactly("tg:" + Subject.of("inbound", "acme").hashTag() + ":s");
    }
  }

  @Test
  void theStartersFilterFoldsServesOnlyKnownTenantsAndKeysTheHash() throws Exception {
    try (ConfigurableApplicationContext app = run("tollgate.tenants.case-insensitive=true",
        "tollgate.tenants.known-only=true", "tollgate.tenants.hash-key=" + HASH_KEY,
        "tollgate.tenants.overrides.premium.requests-per-hour=1")) {
      HttpResponse<String> stranger = chat(app, "stranger-tenant");
      HttpResponse<String> upper = chat(app, "PREMIUM");
      HttpResponse<String> lower = chat(app, "premium");

      assertThat(stranger.statusCode()).isEqualTo(403);
      assertThat(stranger.body()).contains("\"code\":\"unknown_tenant\"").doesNotContain("stranger");
      assertThat(upper.statusCode()).isEqualTo(200);
      assertThat(lower.statusCode()).as("the same tenant, folded").isEqualTo(429);
      assertThat(keys()).containsExactly("tg:{inbound:" + hmac("inbound", "premium") + "}:s");
    }
  }

  @Test
  void theStartersFilterRefusesAUserOnItsLimitWhileAnotherUserOfItsTenantIsServed() throws Exception {
    try (ConfigurableApplicationContext app = run("tollgate.tenants.user-header=X-User-Id",
        "tollgate.tenants.user-limits.requests-per-hour=1", "tollgate.tenants.overrides.acme.requests-per-hour=5")) {
      HttpResponse<String> bob = chat(app, "acme", "bob");
      HttpResponse<String> bobAgain = chat(app, "acme", "bob");
      HttpResponse<String> alice = chat(app, "acme", "alice");

      assertThat(bob.statusCode()).isEqualTo(200);
      assertThat(bobAgain.statusCode()).isEqualTo(429);
      assertThat(bobAgain.body()).contains("Rate limit reached on the user's requests per hour: Limit 1, Remaining 0.");
      assertThat(alice.statusCode()).isEqualTo(200);
      assertThat(keys()).contains("tg:" + Subject.of("inbound", "acme").hashTag() + ":s",
          "tg:" + Subject.of("inbound-user", "4:acme:bob").hashTag() + ":s",
          "tg:" + Subject.of("inbound-user", "4:acme:alice").hashTag() + ":s");
    }
  }

  private static ConfigurableApplicationContext run(String... properties) {
    List<String> args = new ArrayList<>(List.of("--spring.main.banner-mode=off", "--server.port=0",
        "--tollgate.redis.url=" + redis.uri(),
        "--tollgate.tenants.header=X-Tenant-Id",
        "--tollgate.tenants.limits.requests-per-hour=1"));
    Stream.of(properties).map(property -> "--" + property).forEach(args::add);
    return new SpringApplication(TestApp.class).run(args.toArray(String[]::new));
  }

  private HttpResponse<String> chat(ConfigurableApplicationContext app, String tenant) throws Exception {
    return chat(app, tenant, null);
  }

  /** A chat as {@code tenant} and, when not null, {@code user} inside it. */
  private HttpResponse<String> chat(ConfigurableApplicationContext app, String tenant, String user)
      throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + "/chat");
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
        .header("X-Tenant-Id", tenant).POST(HttpRequest.BodyPublishers.ofString(CHAT));
    if (user != null) {
      request.header("X-User-Id", user);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The tenants' state keys (a reservation's record may outlive the answer by the settle's round trip). */
  private static Set<String> keys() {
    try (Jedis jedis = redis.jedis()) {
      return jedis.keys("tg:*:s");
    }
  }

  private static String hmac(String scope, String id) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(HASH_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(
        Arrays.copyOf(mac.doFinal((scope + "\u0000" + id).getBytes(StandardCharsets.UTF_8)), 15));
  }
}
