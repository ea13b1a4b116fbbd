package io.tollgate.servlet;

import static io.tollgate.servlet.Http.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.MicroClock;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.TokenCounter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The filter made in code and registered without web.xml (as the Spring starter will). */
class InCodeFilterTest {

  /** The figures below are the tokenizer's own: counted once its encodings are loaded. */
  @BeforeAll
  static void encodingsLoaded() {
    TokenCounter.awaitLoaded(Duration.ofSeconds(30));
  }


  private static final String CHAT = FilterContract.CHAT;
  private static final String CHAT_BODY = FilterContract.CHAT_BODY;

  private static TollgateConfig config(String yaml) {
    return TollgateConfigLoader.builder().environment(java.util.Map.of()).build().fromYaml(yaml);
  }

  private static final TollgateConfig IN_MEMORY = TollgateConfigLoader.create().load("classpath:in-code.yaml");

  /** A Jetty serving the chat servlet behind {@code filter}. */
  private static final class App implements AutoCloseable {
    final Server server = new Server();
    final URI base;

    App(Filter filter) throws Exception {
      ServerConnector connector = new ServerConnector(server);
      connector.setHost("127.0.0.1");
      server.addConnector(connector);
      ServletContextHandler context = new ServletContextHandler();
      context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(ChatServlet.class, "/*");
      server.setHandler(context);
      server.start();
      base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    HttpResponse<String> chat(String tenant) {
      HttpRequest.Builder request = Http.json(base.resolve(CHAT), CHAT_BODY);
      if (tenant != null) {
        request.header("X-Tenant-Id", tenant);
      }
      return Http.send(request);
    }

    @Override
    public void close() throws Exception {
      server.stop();
    }
  }

  @Test
  void aFilterMadeInCodeChargesTheLimiterItIsGivenAndLeavesItOpen() throws Exception {
    RateLimiter limiter = RateLimiter.inMemory(MicroClock.system(), Duration.ofMinutes(10));
    try (App app = new App(new TollgateFilter(IN_MEMORY, limiter))) {
      assertThat(app.chat("acme").statusCode()).isEqualTo(200);
      assertThat(app.chat("acme").statusCode()).isEqualTo(200);
      assertThat(app.chat("acme").statusCode()).isEqualTo(429);
    }

    // The filter was destroyed with the server; the limiter is still the caller's, and still counts.
    Limits limits = Limits.of(Limit.requests(2, Duration.ofHours(1)), Limit.tokens(10_000, Duration.ofDays(1)));
    assertThat(limiter.reserve(Subject.of(TollgateFilter.SCOPE, "acme"), limits, 1, 1).allowed()).isFalse();
    assertThat(limiter.reserve(Subject.of(TollgateFilter.SCOPE, "other"), limits, 1, 1).allowed()).isTrue();
  }

  @Test
  void withoutRedisTheFilterLimitsInMemory() throws Exception {
    try (App app = new App(new TollgateFilter(IN_MEMORY))) {
      HttpResponse<String> first = app.chat("acme");

      assertThat(header(first, "x-ratelimit-remaining-requests")).isEqualTo("1");
      assertThat(header(first, "x-ratelimit-remaining-tokens"))
          .isEqualTo(Long.toString(10_000 - FilterContract.ESTIMATE));
    }
  }

  @Test
  void aCustomTenantResolverAndADefaultTenant() throws Exception {
    TollgateFilter filter = TollgateFilter.builder(IN_MEMORY)
        .tenantResolver(request -> Optional.ofNullable(request.getParameter("org")))
        .missingTenant(MissingTenant.defaultTenant("guests"))
        .build();
    try (App app = new App(filter)) {
      HttpResponse<String> org = Http.send(Http.json(app.base.resolve(CHAT + "?org=initech"), CHAT_BODY)
          .header("X-Tenant-Id", "ignored"));
      HttpResponse<String> guest = app.chat(null);

      assertThat(header(org, "x-tenant")).isEqualTo("initech");
      assertThat(header(guest, "x-tenant")).isEqualTo("guests");
    }
  }

  @Test
  void aCustomTenantResolverWithoutADefaultRefusesWith400() throws Exception {
    TollgateFilter filter = TollgateFilter.builder(IN_MEMORY)
        .tenantResolver(request -> Optional.ofNullable(request.getParameter("org")))
        .build();
    try (App app = new App(filter)) {
      HttpResponse<String> refused = app.chat("ignored");

      assertThat(refused.statusCode()).isEqualTo(400);
      assertThat(refused.body()).isEqualTo("{\"error\":{\"message\":\"Missing tenant: this endpoint needs to know who"
          + " is calling. (Tollgate)\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"missing_tenant\"}}");
    }
  }

  @Test
  void modeOffPassesEveryRequestUntouched() throws Exception {
    try (App app = new App(new TollgateFilter(config("tollgate:\n  mode: off\n")))) {
      HttpResponse<String> response = app.chat(null);

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(header(response, "x-tenant")).isEqualTo("(none)");
      assertThat(header(response, "x-test-decision")).isEqualTo("(none)");
      assertThat(header(response, "x-ratelimit-limit-requests")).isNull();
    }
  }

  @Test
  void aCorsPreflightNeedsNoTenantAndCostsNothing() throws Exception {
    try (App app = new App(new TollgateFilter(IN_MEMORY))) {
      HttpResponse<String> preflight = Http.send(HttpRequest.newBuilder(app.base.resolve(CHAT))
          .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
          .header("Origin", "https://app.example").header("Access-Control-Request-Method", "POST"));
      HttpResponse<String> first = app.chat("acme");

      assertThat(preflight.statusCode()).isEqualTo(200);
      assertThat(header(preflight, "x-ratelimit-limit-requests")).isNull();
      assertThat(header(first, "x-ratelimit-remaining-requests")).isEqualTo("1");
    }
  }

  @Test
  void skippedRequestsPassUntouchedNeitherChargedNorBound() throws Exception {
    TollgateFilter filter = TollgateFilter.builder(IN_MEMORY)
        .skip(request -> request.getRequestURI().startsWith("/health/"))
        .build();
    try (App app = new App(filter)) {
      HttpResponse<String> anonymousProbe = Http.send(Http.json(app.base.resolve("/health/live"), CHAT_BODY));
      HttpResponse<String> namedProbe = Http.send(Http.json(app.base.resolve("/health/live"), CHAT_BODY)
          .header("X-Tenant-Id", "acme"));
      HttpResponse<String> anonymousChat = app.chat(null);
      HttpResponse<String> first = app.chat("acme");

      assertThat(anonymousProbe.statusCode()).isEqualTo(200);
      assertThat(header(anonymousProbe, "x-tenant")).isEqualTo("(none)");
      assertThat(header(anonymousProbe, "x-test-decision")).isEqualTo("(none)");
      assertThat(namedProbe.statusCode()).isEqualTo(200);
      assertThat(header(namedProbe, "x-tenant")).isEqualTo("(none)");
      assertThat(header(namedProbe, "x-ratelimit-limit-requests")).isNull();
      assertThat(anonymousChat.statusCode()).isEqualTo(400);
      assertThat(header(first, "x-ratelimit-remaining-requests")).isEqualTo("1");
    }
  }

  @Test
  void aFilterWithATenantButNoLimitOnlyBindsIt() throws Exception {
    TollgateConfig unlimited = config("tollgate:\n  tenants:\n    header: X-Tenant-Id\n");
    try (App app = new App(new TollgateFilter(unlimited))) {
      HttpResponse<String> response = app.chat("acme");

      assertThat(header(response, "x-tenant")).isEqualTo("acme");
      assertThat(header(response, "x-ratelimit-limit-requests")).isNull();
      assertThat(response.body()).contains("\"usage\"");
    }
  }
}
