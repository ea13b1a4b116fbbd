package io.tollgate.servlet;

import static io.tollgate.servlet.Http.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tollgate.config.ConfigException;
import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.limiter.Subject;
import io.tollgate.telemetry.TelemetryNames;
import io.tollgate.telemetry.TollgateAttributes;
import io.tollgate.testkit.redis.RedisServer;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tenant ids from outside: the id rule (400), case folding, known-only (403) and the hash key, on a
 * real Jetty and a real Redis. The raw id of a refused request is in no answer, log line, span
 * attribute or Redis key.
 */
class TenantIdsFilterTest {

  private static final RedisServer REDIS = RedisServer.start();
  private static final String HASH_KEY = "0123456789abcdef-tenant-hash-key";
  private static final String INVALID = "{\"error\":{\"message\":\"Invalid tenant: the X-Tenant-Id header must be 1 to 128"
      + " printable ASCII characters, without spaces or control characters. (Tollgate)\",\"type\":\"invalid_request_error\","
      + "\"param\":null,\"code\":\"invalid_tenant\"}}";
  private static final String UNKNOWN = "{\"error\":{\"message\":\"Unknown tenant: this endpoint serves only the tenants"
      + " it is configured for. (Tollgate)\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"unknown_tenant\"}}";

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
      .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
      .build();
  private final LogCapture logs = new LogCapture();
  private final List<App> apps = new ArrayList<>();

  @AfterAll
  static void stopRedis() {
    REDIS.close();
  }

  @BeforeEach
  void forgetEveryCharge() {
    REDIS.flushAll();
  }

  @AfterEach
  void stop() throws Exception {
    for (App app : apps) {
      app.close();
    }
    logs.close();
    sdk.close();
  }

  /** Redis, one request an hour per tenant, and {@code more} under {@code tenants:}. */
  private static TollgateConfig config(String more) {
    return TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml("""
        tollgate:
          redis:
            url: %s
          tenants:
            header: X-Tenant-Id
            limits:
              requests-per-hour: 1
        %s""".formatted(REDIS.uri(), more.indent(4)));
  }

  private App app(TollgateConfig config) throws Exception {
    App app = new App(TollgateFilter.builder(config).openTelemetry(sdk).build());
    apps.add(app);
    return app;
  }

  private App app(String more) throws Exception {
    return app(config(more));
  }

  /** The test app: the hostile-id filter, then Tollgate's, then the chat servlet. */
  private static final class App implements AutoCloseable {
    final Server server = new Server();
    final URI base;

    App(TollgateFilter filter) throws Exception {
      HttpConfiguration http = new HttpConfiguration();
      http.setRequestHeaderSize(64 * 1024);
      ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
      connector.setHost("127.0.0.1");
      server.addConnector(connector);
      ServletContextHandler context = new ServletContextHandler();
      context.addFilter(new FilterHolder(new HostileTenantFilter()), "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(ChatServlet.class, "/*");
      server.setHandler(context);
      server.start();
      base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    /*
     * GETs: a refusal leaves a POST's body unread, and Jetty then may close the connection under the
     * client's next request; these tests are about ids, not bodies.
     */
    HttpResponse<String> chat(String tenant) {
      return Http.send(get().header("X-Tenant-Id", tenant));
    }

    /** Any bytes as the tenant id, beyond what a header can carry: {@link HostileTenantFilter}. */
    HttpResponse<String> chatAs(String tenant) {
      return Http.send(get().header("X-Tenant-Base64",
          Base64.getUrlEncoder().encodeToString(tenant.getBytes(StandardCharsets.UTF_8))));
    }

    HttpResponse<String> chatWithKey(String apiKey) {
      return Http.send(get().header("Authorization", "Bearer " + apiKey));
    }

    HttpRequest.Builder get() {
      return HttpRequest.newBuilder(base.resolve(FilterContract.CHAT)).timeout(Duration.ofSeconds(30)).GET();
    }

    @Override
    public void close() throws Exception {
      server.stop();
    }
  }

  /**
   * Every line logged through java.util.logging (where System.Logger goes) while open: Tollgate's at
   * every level, the others' at their own.
   */
  private static final class LogCapture extends Handler implements AutoCloseable {
    private final Logger root = Logger.getLogger("");
    private final Logger tollgate = Logger.getLogger("io.tollgate");
    private final Level previous = tollgate.getLevel();
    final List<String> lines = new CopyOnWriteArrayList<>();

    LogCapture() {
      setLevel(Level.ALL);
      tollgate.setLevel(Level.ALL);
      root.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
      lines.add(record.getLoggerName() + " " + record.getMessage() + " " + Arrays.toString(record.getParameters())
          + (record.getThrown() == null ? "" : " " + record.getThrown()));
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      root.removeHandler(this);
      tollgate.setLevel(previous);
    }
  }

  private List<SpanData> inboundSpans(int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (inbound().size() < count && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(inbound()).hasSize(count);
    return inbound();
  }

  private List<SpanData> inbound() {
    return spans.getFinishedSpanItems().stream()
        .filter(span -> span.getName().equals(TelemetryNames.INBOUND_SPAN)).toList();
  }

  /** The limiter's keys: not the fleet's heartbeats ({@code tg:{fleet}:*}), which every gate beats. */
  private static java.util.Set<String> keys() {
    try (redis.clients.jedis.Jedis jedis = REDIS.jedis()) {
      return FilterContract.limiterKeys(jedis);
    }
  }

  private static long dbSize() {
    return keys().size();
  }

  private static String hmac(String key, String scope, String id) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    byte[] full = mac.doFinal((scope + "\u0000" + id).getBytes(StandardCharsets.UTF_8));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(full, 15));
  }

  // ---- the id rule ----------------------------------------------------------------------------

  @Test
  void anInvalidTenantIdIsRefusedWith400ThatNeverShowsIt() throws Exception {
    App app = app("");
    String tooLong = "t".repeat(129);
    List<String> invalid = List.of(tooLong, "acme corp", "acme\u0007", "acme\r\nX-Forged: 1", "caf\u00e9", "\u0000");

    List<HttpResponse<String>> refused = new ArrayList<>();
    refused.add(app.chat(tooLong));
    refused.add(app.chat("acme corp")); // both travel in a real header
    for (String tenant : invalid.subList(2, invalid.size())) {
      refused.add(app.chatAs(tenant));
    }
    HttpResponse<String> longest = app.chat("t".repeat(128));

    assertThat(refused).extracting(HttpResponse::statusCode).containsOnly(400);
    assertThat(refused).extracting(HttpResponse::body).containsOnly(INVALID);
    assertThat(refused).extracting(r -> header(r, "x-tollgate")).containsOnly("invalid-tenant");
    assertThat(refused).extracting(r -> header(r, "x-tenant")).containsOnly((String) null); // the app never ran
    assertThat(longest.statusCode()).isEqualTo(200);
    assertThat(keys()).containsExactly(
        "tg:" + Subject.of("inbound", "t".repeat(128)).hashTag() + ":s");

    List<SpanData> traced = inboundSpans(invalid.size() + 1);
    for (String tenant : invalid) {
      String telltale = tenant.length() > 8 ? tenant.substring(0, 8) : tenant.strip();
      for (HttpResponse<String> response : refused) {
        assertThat(response.body() + response.headers().map()).doesNotContain(telltale);
      }
      assertThat(logs.lines).noneMatch(line -> line.contains(telltale));
      for (SpanData span : traced) {
        span.getAttributes().forEach((key, value) -> assertThat(String.valueOf(value)).doesNotContain(telltale));
      }
    }
    assertThat(traced.subList(0, invalid.size()))
        .allMatch(span -> "invalid_tenant".equals(span.getAttributes().get(TollgateAttributes.DECISION)))
        .allMatch(span -> span.getAttributes().get(TollgateAttributes.TENANT_HASH) == null);
  }

  @Test
  void inShadowModeAnInvalidIdPassesUnboundAndUncharged() throws Exception {
    App app = app(TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml("""
        tollgate:
          mode: shadow
          redis: { url: "%s" }
          tenants: { header: X-Tenant-Id, limits: { requests-per-hour: 1 } }
        """.formatted(REDIS.uri())));

    HttpResponse<String> passed = app.chat("acme corp");

    assertThat(passed.statusCode()).isEqualTo(200);
    assertThat(header(passed, "x-tenant")).isEqualTo("(none)");
    assertThat(dbSize()).isZero();
    assertThat(inboundSpans(1).get(0).getAttributes().get(TollgateAttributes.DECISION)).isEqualTo("shadow_denied");
  }

  @Test
  void aDefaultTenantMustKeepTheIdRule() {
    assertThatThrownBy(() -> MissingTenant.defaultTenant("guest users"))
        .hasMessage("the default tenant must be 1 to 128 printable ASCII characters, without spaces or control characters");
    assertThatThrownBy(() -> MissingTenant.parse("default:guest\tusers"))
        .hasMessage("must be default:<tenant id> with an id of 1 to 128 printable ASCII characters, without spaces"
            + " or control characters, was default:guest\tusers");
  }

  // ---- case folding ---------------------------------------------------------------------------

  @Test
  void withCaseInsensitiveAcmeAndACMEShareOneBucket() throws Exception {
    App app = app("case-insensitive: true\n");

    HttpResponse<String> lower = app.chat("acme");
    HttpResponse<String> upper = app.chat("ACME");

    assertThat(lower.statusCode()).isEqualTo(200);
    assertThat(header(lower, "x-tenant")).isEqualTo("acme");
    assertThat(upper.statusCode()).isEqualTo(429);
    assertThat(keys()).containsExactly("tg:" + Subject.of("inbound", "acme").hashTag() + ":s");
  }

  @Test
  void withoutCaseInsensitiveAcmeAndACMEAreTwoTenants() throws Exception {
    App app = app("");

    HttpResponse<String> lower = app.chat("acme");
    HttpResponse<String> upper = app.chat("ACME");

    assertThat(lower.statusCode()).isEqualTo(200);
    assertThat(upper.statusCode()).isEqualTo(200);
    assertThat(header(upper, "x-tenant")).isEqualTo("ACME");
  }

  @Test
  void caseInsensitiveOverridesMatchFolded() throws Exception {
    App app = app("case-insensitive: true\noverrides:\n  Premium: { requests-per-hour: 3 }\n");

    assertThat(app.chat("PREMIUM").statusCode()).isEqualTo(200);
    HttpResponse<String> second = app.chat("premium");

    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(header(second, "x-ratelimit-remaining-requests")).isEqualTo("1");
  }

  // ---- known-only -----------------------------------------------------------------------------

  @Test
  void knownOnlyServesTheListedTenantsAndRefusesAnyOtherWith403() throws Exception {
    App app = app("known-only: true\noverrides:\n  premium: { requests-per-hour: 1 }\n");

    HttpResponse<String> listed = app.chat("premium");
    HttpResponse<String> stranger = app.chat("stranger-tenant");
    HttpResponse<String> otherCase = app.chat("PREMIUM");
    HttpResponse<String> none = Http.send(app.get());

    assertThat(listed.statusCode()).isEqualTo(200);
    assertThat(stranger.statusCode()).isEqualTo(403);
    assertThat(stranger.body()).isEqualTo(UNKNOWN).doesNotContain("stranger");
    assertThat(header(stranger, "x-tollgate")).isEqualTo("unknown-tenant");
    assertThat(otherCase.statusCode()).isEqualTo(403);
    assertThat(none.statusCode()).as("no tenant: as without known-only").isEqualTo(400);
    assertThat(keys()).containsExactly("tg:" + Subject.of("inbound", "premium").hashTag() + ":s");
    assertThat(logs.lines).noneMatch(line -> line.contains("stranger"));
  }

  @Test
  void knownOnlyGivesAClientRotatingAThousandIdsNothing() throws Exception {
    App app = app("known-only: true\noverrides:\n  premium: { requests-per-hour: 1 }\n");

    int served = 0;
    for (int i = 0; i < 1_000; i++) {
      served += app.chat("rotating-" + i).statusCode() == 200 ? 1 : 0;
    }

    assertThat(served).isZero();
    assertThat(dbSize()).isZero();
  }

  @Test
  void knownOnlyRefusesToStartWhenTheDefaultTenantIsNotListed() {
    TollgateConfig config = config("known-only: true\noverrides:\n  premium: { requests-per-hour: 1 }\n");

    assertThatThrownBy(() -> TollgateFilter.builder(config).missingTenant(MissingTenant.defaultTenant("guests")).build())
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.tenants.known-only is true, and the tenant that requests without one are charged to"
            + " (missing-tenant: default:guests) is not listed under tollgate.tenants.overrides, so each of them"
            + " would be refused");
  }

  // ---- the hash key ---------------------------------------------------------------------------

  @Test
  void aHashKeyMakesTheRedisKeysAndSpansAnHmacOfTheId() throws Exception {
    App plain = app("");
    App keyed = app("hash-key: " + HASH_KEY + "\n");

    plain.chat("acme");
    assertThat(keys()).containsExactly("tg:{inbound:" + Subject.of("inbound", "acme").idHash() + "}:s");
    REDIS.flushAll();
    HttpResponse<String> second = keyed.chat("acme");

    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(keys()).containsExactly("tg:{inbound:" + hmac(HASH_KEY, "inbound", "acme") + "}:s");
    assertThat(hmac(HASH_KEY, "inbound", "acme")).isNotEqualTo(Subject.of("inbound", "acme").idHash());
    List<SpanData> traced = inboundSpans(2);
    assertThat(traced.get(0).getAttributes().get(TollgateAttributes.TENANT_HASH))
        .isEqualTo(Subject.of("tenant", "acme").idHash());
    assertThat(traced.get(1).getAttributes().get(TollgateAttributes.TENANT_HASH))
        .isEqualTo(hmac(HASH_KEY, "tenant", "acme"));
    assertThat(logs.lines).noneMatch(line -> line.contains(HASH_KEY));
  }

  @Test
  void apiKeyTenantsAreKeyedTooAndTheirOverridesStillMatch() throws Exception {
    String premium = TenantResolver.apiKeyTenant("sk-premium-1");
    App app = app(TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml("""
        tollgate:
          redis: { url: "%s" }
          tenants:
            api-key-header: Authorization
            hash-key: %s
            limits: { requests-per-hour: 1 }
            overrides:
              "%s": { requests-per-hour: 2 }
        """.formatted(REDIS.uri(), HASH_KEY, premium)));

    List<Integer> statuses = List.of(app.chatWithKey("sk-premium-1").statusCode(),
        app.chatWithKey("sk-premium-1").statusCode(), app.chatWithKey("sk-premium-1").statusCode());

    assertThat(statuses).containsExactly(200, 200, 429);
    assertThat(keys()).containsExactly("tg:{inbound:" + hmac(HASH_KEY, "inbound", premium) + "}:s");
  }

  @Test
  void aShortHashKeyFailsInitNamingTheKeyAndNotTheSecret(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tollgate.yaml");
    Files.writeString(file, "tollgate:\n  tenants:\n    header: X-Tenant-Id\n    hash-key: only-15-bytes!!\n");
    TollgateFilter filter = new TollgateFilter();

    assertThatThrownBy(() -> filter.init(filterConfig(Map.of("config", file.toString()))))
        .isInstanceOf(ServletException.class)
        .hasMessage("tollgate.tenants.hash-key must be at least 16 bytes (32 random bytes, such as"
            + " `openssl rand -base64 32`, are best), was 15 bytes")
        .hasMessageNotContaining("only-15");
  }

  /** A container's filter config holding {@code params}. */
  private static FilterConfig filterConfig(Map<String, String> params) {
    ServletContext context = (ServletContext) Proxy.newProxyInstance(TenantIdsFilterTest.class.getClassLoader(),
        new Class<?>[] {ServletContext.class}, (proxy, method, args) -> method.getName().equals("getClassLoader")
            ? TenantIdsFilterTest.class.getClassLoader() : null);
    return (FilterConfig) Proxy.newProxyInstance(TenantIdsFilterTest.class.getClassLoader(),
        new Class<?>[] {FilterConfig.class}, (proxy, method, args) -> switch (method.getName()) {
          case "getInitParameter" -> params.get((String) args[0]);
          case "getInitParameterNames" -> Collections.enumeration(params.keySet());
          case "getServletContext" -> context;
          case "getFilterName" -> "tollgate";
          default -> null;
        });
  }
}
