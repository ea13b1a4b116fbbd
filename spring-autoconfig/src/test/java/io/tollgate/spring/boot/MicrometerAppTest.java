package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.llm.ProviderApi;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * A real Boot app with the actuator and the Prometheus registry, a real Redis and a mock provider:
 * three calls through Boot's RestClient, the third refused by the provider's limit, and one
 * request through the starter's filter show as Tollgate's meters in {@code /actuator/metrics} and in the Prometheus scrape, with exact values.
 */
@SpringBootTest(classes = TestApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "tollgate.providers.openai.limits.requests-per-hour=2",
    "tollgate.tenants.header=X-Tenant-Id",
    "management.endpoints.web.exposure.include=metrics,prometheus",
    // a @SpringBootTest turns metrics export off but for the simple registry (both Boot lines)
    "management.prometheus.metrics.export.enabled=true"})
class MicrometerAppTest {

  static final RedisServer redis = RedisServer.start();
  static final MockLlmServer primary = MockLlmServer.start().usage(11, 7);
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";
  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();

  @Autowired
  RestClient.Builder restClients;
  @Autowired
  Environment environment;

  @DynamicPropertySource
  static void fixtures(DynamicPropertyRegistry registry) {
    registry.add("tollgate.providers.openai.base-url", primary::baseUrl);
    registry.add("tollgate.redis.url", () -> redis.uri().toString());
  }

  @AfterAll
  static void stop() {
    primary.close();
    redis.close();
  }

  @Test
  void callsThroughTheRestClientAreCountedInTheActuatorsMetricsAndThePrometheusScrape() throws Exception {
    RestClient client = restClients.baseUrl(primary.baseUrl()).build();
    assertThat(List.of(call(client), call(client), call(client))).containsExactly(200, 200, 429);
    // and one request into the app through the starter's filter: its inbound decision is a meter too
    assertThat(http.send(HttpRequest.newBuilder(local("/chat")).header("X-Tenant-Id", "acme")
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(CHAT)).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    long estimate = ProviderApi.OPENAI.protocol()
        .readRequest("/v1/chat/completions", CHAT.getBytes(StandardCharsets.UTF_8), 1024)
        .estimate().totalTokens();

    JsonNode decisions = metric("tollgate.decisions");
    assertThat(decisions.at("/measurements").toString()).isEqualTo("[{\"statistic\":\"COUNT\",\"value\":4.0}]");
    Map<String, Set<String>> tags = new TreeMap<>(); // the endpoint's order is a hash map's
    decisions.at("/availableTags").forEach(tag -> tag.get("values").forEach(value ->
        tags.computeIfAbsent(tag.get("tag").asText(), key -> new TreeSet<>()).add(value.asText())));
    assertThat(tags).isEqualTo(Map.of("tollgate.decision", Set.of("allowed", "denied"),
        "tollgate.direction", Set.of("inbound", "outbound"), "tollgate.provider", Set.of("none", "openai")));
    assertThat(metric("tollgate.decisions?tag=tollgate.decision:allowed").at("/measurements/0/value").asDouble())
        .isEqualTo(3.0);
    assertThat(metric("tollgate.decisions?tag=tollgate.direction:inbound").at("/measurements/0/value").asDouble())
        .isEqualTo(1.0);
    assertThat(metric("tollgate.decisions?tag=tollgate.decision:denied").at("/measurements/0/value").asDouble())
        .isEqualTo(1.0);

    List<String> scraped = get("/actuator/prometheus", "text/plain").lines()
        .filter(line -> line.startsWith("tollgate_")).toList();
    assertThat(scraped.stream().filter(line -> !line.startsWith("tollgate_limiter_duration_seconds_")))
        .containsExactlyInAnyOrder(
            "tollgate_breaker_state{tollgate_provider=\"openai\"} 0.0",
            // two calls of gpt-4o, 11 input and 7 output tokens each: 98 µUSD each at the bundled prices
            "tollgate_cost_total{tollgate_model=\"gpt-4o\",tollgate_provider=\"openai\"} 1.96E-4",
            "tollgate_decisions_total{tollgate_decision=\"allowed\",tollgate_direction=\"inbound\",tollgate_provider=\"none\"} 1.0",
            "tollgate_decisions_total{tollgate_decision=\"allowed\",tollgate_direction=\"outbound\",tollgate_provider=\"openai\"} 2.0",
            "tollgate_decisions_total{tollgate_decision=\"denied\",tollgate_direction=\"outbound\",tollgate_provider=\"openai\"} 1.0",
            "tollgate_limiter_degraded 0.0",
            "tollgate_limiter_degraded_time_seconds_total 0.0",
            "tollgate_redis_pool_exhausted_total 0.0",
            "tollgate_tokens_reserved_total{tollgate_provider=\"openai\"} " + (2.0 * estimate),
            "tollgate_tokens_used_total{gen_ai_token_type=\"input\",tollgate_provider=\"openai\"} 22.0",
            "tollgate_tokens_used_total{gen_ai_token_type=\"output\",tollgate_provider=\"openai\"} 14.0");
    String durationLabels = "{tollgate_degraded=\"false\",tollgate_provider=\"openai\"} ";
    // the 14 bounds OpenTelemetry's histogram has, and +Inf: every sample is within the last
    List<String> buckets = scraped.stream()
        .filter(line -> line.startsWith("tollgate_limiter_duration_seconds_bucket")).toList();
    assertThat(buckets).hasSize(15).last().isEqualTo("tollgate_limiter_duration_seconds_bucket"
        + "{tollgate_degraded=\"false\",tollgate_provider=\"openai\",le=\"+Inf\"} 3");
    assertThat(buckets.get(0)).startsWith("tollgate_limiter_duration_seconds_bucket"
        + "{tollgate_degraded=\"false\",tollgate_provider=\"openai\",le=\"5.0E-5\"} ");
    assertThat(scraped.stream().filter(line -> line.startsWith("tollgate_limiter_duration_seconds_")
            && !line.startsWith("tollgate_limiter_duration_seconds_bucket")))
        .satisfiesExactlyInAnyOrder(
            line -> assertThat(line).isEqualTo("tollgate_limiter_duration_seconds_count" + durationLabels + "3"),
            line -> assertThat(line).startsWith("tollgate_limiter_duration_seconds_sum" + durationLabels)
                .satisfies(sum -> assertThat(value(sum)).isPositive()),
            line -> assertThat(line).startsWith("tollgate_limiter_duration_seconds_max" + durationLabels)
                .satisfies(max -> assertThat(value(max)).isPositive()));
  }

  private static double value(String line) {
    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
  }

  private static int call(RestClient client) {
    return client.post().uri("/v1/chat/completions")
        .header("Authorization", "Bearer sk-app")
        .contentType(MediaType.APPLICATION_JSON).body(CHAT)
        .exchange((request, response) -> {
          response.getBody().readAllBytes(); // the end of the body settles the call
          return response.getStatusCode().value();
        });
  }

  private JsonNode metric(String nameAndQuery) throws Exception {
    return JSON.readTree(get("/actuator/metrics/" + nameAndQuery, "application/json"));
  }

  private URI local(String path) {
    return URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + path);
  }

  private String get(String path, String accept) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(local(path))
        .header("Accept", accept).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    return response.body();
  }
}
