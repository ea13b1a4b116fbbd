package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.gate.Gate;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.Subject;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.status.StatusPage;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import io.tollgate.testkit.redis.RedisServer;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.NoOpResponseErrorHandler;
import org.springframework.web.client.RestTemplate;
import org.springframework.util.ClassUtils;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A real Boot app on an embedded Tomcat, with a real Redis and two mock providers: inbound limits
 * through the filter, outbound limits and fallback through Boot's RestClient and WebClient
 * builders, and the actuator's view of it. Limits are per hour so that nothing refills during the
 * test and every count is exact.
 */
@SpringBootTest(classes = {TestApp.class, TollgateAppTest.SignedInUsers.class}, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "tollgate.providers.openai.limits.requests-per-hour=2",
    "tollgate.providers.openai.limits.tokens-per-day=1000",
    "tollgate.providers.openai.fallbacks=backup",
    "tollgate.providers.backup.api-key=sk-backup",
    "tollgate.providers.backup.limits.requests-per-hour=1",
    "tollgate.providers.backup.model-map.gpt-4o=gpt-4o-mini",
    "tollgate.tenants.header=X-Tenant-Id",
    "tollgate.tenants.limits.requests-per-hour=3",
    "management.endpoints.web.exposure.include=health,tollgate,info",
    "management.endpoint.health.show-details=always"})
class TollgateAppTest {

  static final RedisServer redis = RedisServer.start();
  static final MockLlmServer primary = MockLlmServer.start();
  static final MockLlmServer backup = MockLlmServer.start();
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";
  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();

  @Autowired
  RestClient.Builder restClients;
  @Autowired
  WebClient.Builder webClients;
  @Autowired
  Environment environment;
  @Autowired
  Gate gate;
  @Autowired
  ApplicationContext context;

  static final boolean BOOT_4 = ClassUtils.isPresent("org.springframework.boot.restclient.RestTemplateBuilder", null);

  @DynamicPropertySource
  static void fixtures(DynamicPropertyRegistry registry) {
    registry.add("tollgate.redis.url", () -> redis.uri().toString());
    // the counts asserted are Redis's: on a busy machine a reply past the 100 ms default would be
    // decided by the local fail-open guard instead, which admits on its own
    registry.add("tollgate.redis.timeout", () -> "2s");
    registry.add("tollgate.providers.openai.base-url", primary::baseUrl);
    registry.add("tollgate.providers.backup.base-url", backup::baseUrl);
  }

  @AfterAll
  static void stopFixtures() {
    primary.close();
    backup.close();
    redis.close();
  }

  @BeforeEach
  void freshLimits() {
    redis.flushAll();
    primary.reset();
    backup.reset();
  }

  @Test
  void filterAdmitsExactlyTheTenantsLimit() throws Exception {
    List<Integer> statuses = new ArrayList<>();
    HttpResponse<String> last = null;
    for (int i = 0; i < 5; i++) {
      last = inbound("acme");
      statuses.add(last.statusCode());
    }
    assertThat(statuses).containsExactly(200, 200, 200, 429, 429);
    assertThat(last.headers().firstValue("x-tollgate")).contains("rate-limited");
    assertThat(JSON.readTree(last.body()).at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
    assertThat(inbound("globex").headers().firstValue("x-ratelimit-remaining-requests")).contains("2");
  }

  /** Boot's default (Reactor Netty here), the JDK's HttpClient, HttpURLConnection. */
  static Stream<ClientHttpRequestFactory> requestFactories() {
    return Stream.of(null, new JdkClientHttpRequestFactory(), new SimpleClientHttpRequestFactory());
  }

  @ParameterizedTest
  @MethodSource("requestFactories")
  @DirtiesContext // the backup's health score remembers it ran out of quota: a fresh gate for the next test
  void restClientIsLimitedAndFallsBackWithTheBackupsOwnKey(ClientHttpRequestFactory factory) {
    RestClient.Builder builder = restClients.baseUrl(primary.baseUrl());
    if (factory != null) {
      builder.requestFactory(factory);
    }
    RestClient client = builder.build();
    List<Integer> statuses = new ArrayList<>();
    List<String> bodies = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ResponseEntity<String> response = client.post().uri("/v1/chat/completions")
          .header("Authorization", "Bearer sk-app")
          .contentType(MediaType.APPLICATION_JSON)
          .body(CHAT)
          .retrieve()
          .onStatus(status -> true, (request, answer) -> { })
          .toEntity(String.class);
      statuses.add(response.getStatusCode().value());
      bodies.add(response.getBody());
    }
    assertThat(statuses).as("%s", bodies).containsExactly(200, 200, 200, 429);
    assertRouting(bodies);
  }

  @Test
  @DirtiesContext
  void restTemplateFromBootsBuilderIsLimitedAndFallsBack() throws Exception {
    // RestTemplateBuilder moved package in Boot 4.0; this test runs on both lines
    Object builder = context.getBean(Class.forName(BOOT_4 ? "org.springframework.boot.restclient.RestTemplateBuilder"
        : "org.springframework.boot.web.client.RestTemplateBuilder"));
    RestTemplate template = (RestTemplate) builder.getClass().getMethod("build").invoke(builder);
    template.setErrorHandler(new NoOpResponseErrorHandler());
    List<Integer> statuses = new ArrayList<>();
    List<String> bodies = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      HttpHeaders headers = new HttpHeaders();
      headers.set("Authorization", "Bearer sk-app");
      headers.set("Content-Type", "application/json");
      ResponseEntity<String> response = template.exchange(primary.baseUrl() + "/v1/chat/completions",
          HttpMethod.POST, new HttpEntity<>(CHAT, headers), String.class);
      statuses.add(response.getStatusCode().value());
      bodies.add(response.getBody());
    }
    assertThat(statuses).as("%s", bodies).containsExactly(200, 200, 200, 429);
    assertRouting(bodies);
  }

  @Test
  @DirtiesContext // the backup's health score remembers it ran out of quota: a fresh gate for the next test
  void webClientIsLimitedAndFallsBackWithTheBackupsOwnKey() {
    WebClient client = webClients.baseUrl(primary.baseUrl()).build();
    List<Integer> statuses = new ArrayList<>();
    List<String> bodies = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Map.Entry<Integer, String> answer = client.post().uri("/v1/chat/completions")
          .header("Authorization", "Bearer sk-app")
          .contentType(MediaType.APPLICATION_JSON)
          .bodyValue(Map.of("model", "gpt-4o", "max_tokens", 16,
              "messages", List.of(Map.of("role", "user", "content", "Say hello"))))
          .exchangeToMono(response -> response.bodyToMono(String.class).defaultIfEmpty("")
              .map(body -> Map.entry(response.statusCode().value(), body)))
          .block(Duration.ofSeconds(30));
      statuses.add(answer.getKey());
      bodies.add(answer.getValue());
    }
    assertThat(statuses).as("%s", bodies).containsExactly(200, 200, 200, 429);
    assertRouting(bodies);
  }

  /** Two calls on the primary with the app's key, the third on the backup with its own, the fourth refused. */
  private static void assertRouting(List<String> bodies) {
    List<RecordedRequest> onPrimary = primary.awaitRequests(2, Duration.ofSeconds(10));
    List<RecordedRequest> onBackup = backup.awaitRequests(1, Duration.ofSeconds(10));
    assertThat(primary.requestCount()).isEqualTo(2);
    assertThat(backup.requestCount()).isEqualTo(1);
    assertThat(onPrimary).extracting(r -> r.header("authorization")).containsExactly("Bearer sk-app", "Bearer sk-app");
    assertThat(onPrimary).extracting(r -> r.json().get("model").asText()).containsExactly("gpt-4o", "gpt-4o");
    assertThat(onBackup.get(0).header("authorization")).isEqualTo("Bearer sk-backup");
    assertThat(onBackup.get(0).json().get("model").asText()).isEqualTo("gpt-4o-mini");
    assertThat(onBackup.get(0).headers().toString()).doesNotContain("sk-app");
    assertThat(bodies.get(2)).contains("\"model\":\"gpt-4o-mini\"");
    assertThat(bodies.get(3)).contains("\"code\":\"rate_limit_exceeded\"").contains("(Tollgate)");
  }

  @Test
  void streamsArriveWholeAndSettleWithTheUsageTheyReport() {
    String streamed = "{\"model\":\"gpt-4o\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";
    String body = restClients.baseUrl(primary.baseUrl()).build().post().uri("/v1/chat/completions")
        .header("Authorization", "Bearer sk-app")
        .contentType(MediaType.APPLICATION_JSON)
        .body(streamed)
        .retrieve()
        .body(String.class);
    assertThat(body).startsWith("data: {").endsWith("data: [DONE]\n\n").contains("\"total_tokens\":19");
    // the mock reports 3 prompt + 16 completion tokens: the estimate was replaced by them
    assertThat(tokensLeftOnOpenai()).isEqualTo(1000 - 19);

    List<String> events = webClients.baseUrl(primary.baseUrl()).build().post().uri("/v1/chat/completions")
        .header("Authorization", "Bearer sk-app")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(streamed)
        .retrieve()
        .bodyToFlux(String.class)
        .collectList()
        .block(Duration.ofSeconds(30));
    assertThat(events.size()).isGreaterThan(3);
    assertThat(events.get(events.size() - 1)).isEqualTo("[DONE]");
    assertThat(events.get(events.size() - 2)).contains("\"total_tokens\":19");
    assertThat(tokensLeftOnOpenai()).isEqualTo(1000 - 19 - 19);
    assertThat(primary.requestCount()).isEqualTo(2);
  }

  /** What the limiter has left of openai's tokens-per-day: the smallest reservation, given back at once. */
  private long tokensLeftOnOpenai() {
    assertThat(gate.awaitSettled(Duration.ofSeconds(30))).isTrue();
    Limits limits = gate.config().provider("openai").orElseThrow().limits().toLimits();
    Decision probe = gate.limiter().reserve(Subject.of("provider", "openai"), limits, 0, 1);
    probe.reservation().ifPresent(gate.limiter()::release);
    return probe.remainingTokens() + 1;
  }

  @Test
  void actuatorReportsHealthProvidersAndTenants() throws Exception {
    for (int i = 0; i < 2; i++) {
      assertThat(inbound("acme").statusCode()).isEqualTo(200);
    }
    JsonNode health = JSON.readTree(get("/actuator/health").body());
    JsonNode tollgate = health.at("/components/tollgate");
    assertThat(tollgate.get("status").asText()).isEqualTo("UP");
    assertThat(tollgate.at("/details/limiter").asText()).isEqualTo("redis");
    assertThat(tollgate.at("/details/redisReachable").asBoolean()).isTrue();
    assertThat(tollgate.at("/details/breakers/openai").asText()).isEqualTo("closed");
    assertThat(tollgate.at("/details/openBreakers").size()).isZero();

    JsonNode endpoint = JSON.readTree(get("/actuator/tollgate").body());
    assertThat(endpoint.get("mode").asText()).isEqualTo("enforce");
    assertThat(endpoint.get("limiter").asText()).isEqualTo("redis");
    assertThat(endpoint.at("/providers/openai/baseUrl").asText()).isEqualTo(primary.baseUrl());
    assertThat(endpoint.at("/providers/openai/breaker").asText()).isEqualTo("closed");
    assertThat(endpoint.at("/providers/openai/fallbacks/0").asText()).isEqualTo("backup");
    assertThat(endpoint.at("/providers/openai/limits/requests-per-hour").asLong()).isEqualTo(2);
    assertThat(endpoint.at("/providers/backup/healthScore").isNumber()).isTrue();

    HttpResponse<String> tenant = get("/actuator/tollgate/acme");
    assertThat(tenant.statusCode()).isEqualTo(200);
    JsonNode acme = JSON.readTree(tenant.body());
    assertThat(acme.get("tenant").asText()).isEqualTo(Subject.of("tenant", "acme").idHash());
    assertThat(tenant.body()).doesNotContain("acme");
    assertThat(acme.at("/inbound/remainingRequests").asLong()).isEqualTo(1);
    assertThat(acme.at("/outbound/remainingRequests").asLong()).isEqualTo(3);
    // the query gave back what it reserved
    assertThat(JSON.readTree(get("/actuator/tollgate/acme").body()).at("/inbound/remainingRequests").asLong())
        .isEqualTo(1);
  }

  @Test
  void actuatorServesTheStatusPageToABrowserAndItsDataAtViewStatus() throws Exception {
    // a tenant no other test charges, so its counts are this test's; the gate outlives tests
    // that keep the context, so the provider's count is read before
    String reader = "status-reader";
    long answeredBefore = gate.activity().providers().get("openai").answered();
    RestClient client = restClients.baseUrl(primary.baseUrl()).build();
    for (int i = 0; i < 2; i++) {
      assertThat(client.post().uri("/v1/chat/completions").header("Authorization", "Bearer sk-app")
          .contentType(MediaType.APPLICATION_JSON).body(CHAT).retrieve().toBodilessEntity()
          .getStatusCode().value()).isEqualTo(200);
    }
    List<Integer> inbound = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      inbound.add(inbound(reader).statusCode());
    }
    assertThat(inbound).containsExactly(200, 200, 200, 429);

    HttpResponse<String> page = get("/actuator/tollgate", "text/html");
    HttpResponse<String> browser = get("/actuator/tollgate",
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
    HttpResponse<String> data = get("/actuator/tollgate?view=status", "application/json");
    HttpResponse<String> dataInABrowser = get("/actuator/tollgate?view=status", "text/html");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).contains("text/html;charset=UTF-8");
    assertThat(page.body()).isEqualTo(new String(StatusPage.htmlWithPolicy(), StandardCharsets.UTF_8))
        .contains("<title>Tollgate status</title>")
        .contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';")
        .doesNotContain("openai").doesNotContain("backup").doesNotContain("sk-")
        .doesNotContain(primary.baseUrl()).doesNotContain(reader);
    assertThat(browser.headers().firstValue("Content-Type")).contains("text/html;charset=UTF-8");
    assertThat(browser.body()).isEqualTo(page.body());

    assertThat(data.statusCode()).isEqualTo(200);
    assertThat(data.headers().firstValue("Content-Type")).contains("application/json");
    JsonNode report = JSON.readTree(data.body());
    assertThat(Instant.parse(report.get("generatedAt").asText())).isBefore(Instant.now());
    assertThat(report.get("version").asText()).isEqualTo(System.getProperty("tollgate.version"));
    assertThat(report.get("mode").asText()).isEqualTo("enforce");
    assertThat(report.get("limiter").asText()).isEqualTo("redis");
    JsonNode openai = report.get("providers").get(0);
    assertThat(openai.get("name").asText()).isEqualTo("openai");
    assertThat(openai.get("breaker").asText()).isEqualTo("closed");
    assertThat(openai.has("openUntil")).as("nulls are left out").isFalse();
    assertThat(openai.get("answered").asLong()).isEqualTo(answeredBefore + 2);
    JsonNode tenant = tenant(report, Subject.of("tenant", reader).idHash());
    assertThat(tenant.get("calls").asLong()).isEqualTo(4);
    assertThat(tenant.get("refused").asLong()).isEqualTo(1);
    assertThat(tenant.at("/inbound/0/limit").asText()).isEqualTo("requests-per-hour");
    assertThat(tenant.at("/inbound/0/remaining").asLong()).isZero();
    JsonNode self = report.get("fleet").get(0);
    assertThat(self.get("self").asBoolean()).isTrue();
    assertThat(self.get("frontEnd").asText()).isEqualTo("starter");
    assertThat(self.get("version").asText()).isEqualTo(System.getProperty("tollgate.version"));
    assertThat(data.body()).doesNotContain(reader).doesNotContain("sk-");
    assertThat(dataInABrowser.headers().firstValue("Content-Type")).contains("application/json");
    assertThat(JSON.readTree(dataInABrowser.body()).get("version")).isEqualTo(report.get("version"));
  }

  @Test
  void actuatorAnswersProgramsWithItsOwnJsonAsBefore() throws Exception {
    HttpResponse<String> noAccept = get("/actuator/tollgate");
    HttpResponse<String> json = get("/actuator/tollgate", "application/json");

    assertThat(noAccept.headers().firstValue("Content-Type"))
        .contains("application/vnd.spring-boot.actuator.v3+json");
    assertThat(json.headers().firstValue("Content-Type")).contains("application/json");
    for (HttpResponse<String> answer : List.of(noAccept, json)) {
      assertThat(answer.statusCode()).isEqualTo(200);
      JsonNode endpoint = JSON.readTree(answer.body());
      assertThat(endpoint.at("/providers/openai/breaker").asText()).isEqualTo("closed");
      assertThat(endpoint.at("/providers/backup/api").asText()).isEqualTo("openai");
      assertThat(endpoint.has("generatedAt")).isFalse();
    }
  }

  @Test
  void actuatorChangesALiveOverrideAsTheSignedInUserAndTheFilterAppliesItAtOnce() throws Exception {
    // a tenant no other test charges: 3 requests an hour by the configuration
    HttpResponse<String> set = post("/actuator/tollgate", "alice", """
        {"action":"set","tenant":"raised","limits":"requests-per-hour=5","by":"ci"}""");
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      statuses.add(inbound("raised").statusCode());
    }
    HttpResponse<String> misspelt = post("/actuator/tollgate", null, """
        {"action":"set","tenant":"raised","limits":"requests-per-hou=9"}""");
    HttpResponse<String> read = get("/actuator/tollgate?view=overrides", "application/json");
    HttpResponse<String> removed = post("/actuator/tollgate", null, """
        {"action":"remove","tenant":"raised"}""");
    HttpResponse<String> readAgain = get("/actuator/tollgate?view=overrides", "application/json");

    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    assertThat(set.headers().firstValue("Content-Type")).contains("application/json");
    assertThat(withoutTimes(set.body())).as("the signed-in user, not the body's by").isEqualTo(JSON.readTree("""
        {"version":1,"action":"set","label":"tenant raised","by":"alice","before":{},
         "after":{"requests-per-hour":"5"}}"""));
    assertThat(statuses).containsExactly(200, 200, 200, 200, 200, 429);
    assertThat(misspelt.statusCode()).isEqualTo(400);
    assertThat(misspelt.body()).isEqualTo("{\"error\":\"tollgate.tenants.overrides.raised.requests-per-hou"
        + " is not a known key; did you mean requests-per-hour?\"}");
    assertThat(withoutTimes(read.body())).isEqualTo(JSON.readTree("""
        {"version":1,
         "overrides":[{"label":"tenant raised","limits":{"requests-per-hour":"5"},"by":"alice"}],
         "audit":[{"version":1,"action":"set","label":"tenant raised","by":"alice","before":{},
                   "after":{"requests-per-hour":"5"}}]}"""));
    assertThat(removed.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(removed.body()).get("by").asText()).as("no user, no by").isEqualTo("actuator");
    JsonNode after = JSON.readTree(readAgain.body());
    assertThat(after.get("version").asLong()).isEqualTo(2);
    assertThat(after.get("overrides")).isEmpty();
    assertThat(after.get("audit")).extracting(change -> change.get("action").asText() + " by "
        + change.get("by").asText()).containsExactly("remove by actuator", "set by alice");
  }

  /** A JSON answer without its times, which are Redis's clock's: each checked to be past. */
  private static JsonNode withoutTimes(String body) throws Exception {
    JsonNode json = JSON.readTree(body);
    json.findParents("at").forEach(node -> {
      assertThat(Instant.parse(node.get("at").asText())).isBeforeOrEqualTo(Instant.now());
      ((ObjectNode) node).remove("at");
    });
    return json;
  }

  /**
   * Signs a request in as the user its {@code X-Test-User} header names, as an app's security does
   * (Spring Security's request wrapper answers {@code getUserPrincipal()} so too): the actuator hands
   * that principal to the endpoint's operations.
   */
  @Configuration(proxyBeanMethods = false)
  static class SignedInUsers {

    @Bean
    FilterRegistrationBean<Filter> signedInUsers() {
      return new FilterRegistrationBean<>((request, response, chain) -> {
        String user = ((HttpServletRequest) request).getHeader("X-Test-User");
        chain.doFilter(user == null ? request
            : new HttpServletRequestWrapper((HttpServletRequest) request) {
              @Override
              public Principal getUserPrincipal() {
                return () -> user;
              }
            }, response);
      });
    }
  }

  private static JsonNode tenant(JsonNode report, String name) {
    for (JsonNode tenant : report.get("tenants")) {
      if (tenant.get("name").asText().equals(name)) {
        return tenant;
      }
    }
    throw new AssertionError("no tenant " + name + " in " + report.get("tenants"));
  }

  @Test
  void actuatorInfoNamesTheVersionTheAppRuns() throws Exception {
    JsonNode info = JSON.readTree(get("/actuator/info").body());

    assertThat(info.get("tollgate")).isEqualTo(JSON.readTree("""
        {"version":"%s","mode":"enforce","limiter":"redis"}""".formatted(System.getProperty("tollgate.version"))));
  }

  private HttpResponse<String> inbound(String tenant) throws Exception {
    return http.send(HttpRequest.newBuilder(local("/v1/chat/completions"))
        .header("X-Tenant-Id", tenant)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(CHAT))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A JSON POST, signed in as {@code user} when it is not null. */
  private HttpResponse<String> post(String path, String user, String json) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(local(path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json));
    if (user != null) {
      request.header("X-Test-User", user);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(local(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path, String accept) throws Exception {
    return http.send(HttpRequest.newBuilder(local(path)).header("Accept", accept).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private URI local(String path) {
    return URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + path);
  }
}
