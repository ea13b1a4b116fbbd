package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.gate.Gate;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;
import org.yaml.snakeyaml.Yaml;

/**
 * docs/grafana's dashboard and alert rules parse, have the panels and alerts they promise, and
 * name only metrics Tollgate emits: every metric of their PromQL is in the Prometheus scrape of a
 * real Boot app (real Redis, mock providers) whose calls opened a breaker, fell back, were refused
 * and spent part of a budget.
 */
@SpringBootTest(classes = TestApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "tollgate.breaker.failures=1",
    "tollgate.breaker.open-for=5m",
    "tollgate.providers.primary.fallbacks=backup",
    "tollgate.providers.backup.api-key=sk-backup",
    "tollgate.providers.backup.limits.requests-per-hour=1",
    "tollgate.providers.backup.limits.usd-per-day=1.00",
    "management.endpoints.web.exposure.include=prometheus",
    // a @SpringBootTest turns metrics export off but for the simple registry (both Boot lines)
    "management.prometheus.metrics.export.enabled=true"})
class GrafanaFilesAppTest {

  static final Path DASHBOARD = grafana("tollgate-dashboard.json");
  static final Path ALERTS = grafana("tollgate-alerts.yml");

  static final RedisServer redis = RedisServer.start();
  static final MockLlmServer primary = MockLlmServer.start().usage(11, 7);
  static final MockLlmServer backup = MockLlmServer.start().usage(11, 7);
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";

  /** What the files may name; a metric renamed in Tollgate or in the files fails here. */
  static final Set<String> DASHBOARD_METRICS = Set.of("tollgate_decisions_total", "tollgate_breaker_state",
      "tollgate_fallbacks_total", "tollgate_limiter_duration_seconds_bucket", "tollgate_tokens_used_total",
      "tollgate_cost_total", "tollgate_budget_used", "tollgate_limiter_degraded",
      "tollgate_redis_pool_exhausted_total");
  static final Set<String> ALERT_METRICS = Set.of("tollgate_breaker_state", "tollgate_decisions_total",
      "tollgate_limiter_degraded", "tollgate_budget_used");

  private final HttpClient http = HttpClient.newHttpClient();

  @Autowired
  RestClient.Builder restClients;
  @Autowired
  Gate gate;
  @Autowired
  Environment environment;

  @DynamicPropertySource
  static void fixtures(DynamicPropertyRegistry registry) {
    registry.add("tollgate.providers.primary.base-url", primary::baseUrl);
    registry.add("tollgate.providers.backup.base-url", backup::baseUrl);
    registry.add("tollgate.redis.url", () -> redis.uri().toString());
  }

  @AfterAll
  static void stop() {
    primary.close();
    backup.close();
    redis.close();
  }

  @Test
  void theDashboardAndAlertsNameOnlyMetricsInTheScrapeOfAnAppThatProducedThemAll() throws Exception {
    primary.script().next(1, Fault.status(503));
    // primary fails and opens: the backup answers; then primary is open and the backup's one call
    // an hour spent (unavailable); then the backup asked directly is refused by its limit (denied)
    assertThat(List.of(call(primary), call(primary), call(backup))).containsExactly(200, 503, 429);
    assertThat(gate.awaitSettled(Duration.ofSeconds(10))).isTrue(); // the spend is in Redis

    String scrape = get("/actuator/prometheus");
    Set<String> scraped = scrapedNames(scrape);

    assertThat(dashboardMetrics()).isEqualTo(DASHBOARD_METRICS);
    assertThat(alertMetrics()).isEqualTo(ALERT_METRICS);
    assertThat(scraped).containsAll(DASHBOARD_METRICS).containsAll(ALERT_METRICS);
    // what the alerts would read: the open breaker, and the backup's budget at exactly its spend
    // (11 input and 7 output tokens of gpt-4o at the bundled 2.50 and 10.00 USD per million,
    // settled in whole micro-dollars: 98 of 1,000,000)
    assertThat(scrape.lines()).contains(
        "tollgate_breaker_state{tollgate_provider=\"primary\"} 2.0",
        "tollgate_budget_used{tollgate_budget_period=\"day\",tollgate_model=\"\",tollgate_provider=\"backup\"} 9.8E-5",
        "tollgate_fallbacks_total{tollgate_fallback_from=\"primary\",tollgate_fallback_to=\"backup\"} 1.0",
        "tollgate_decisions_total{tollgate_decision=\"unavailable\",tollgate_direction=\"outbound\",tollgate_provider=\"primary\"} 1.0",
        "tollgate_decisions_total{tollgate_decision=\"denied\",tollgate_direction=\"outbound\",tollgate_provider=\"backup\"} 1.0",
        "tollgate_limiter_degraded 0.0");
  }

  @Test
  void everyAlertHasItsRuleAndEveryPromisedPanelIsThere() throws Exception {
    List<Map<String, Object>> rules = alertRules();
    assertThat(rules).extracting(rule -> rule.get("alert")).containsExactly("TollgateBreakerOpen",
        "TollgateRefusals", "TollgateRedisDegraded", "TollgateBudget80PercentSpent");
    assertThat(rules).allSatisfy(rule -> {
      assertThat(rule.get("expr")).asString().isNotBlank();
      assertThat(rule.get("for")).asString().matches("\\d+[smh]");
      assertThat(rule.get("labels")).asInstanceOf(MAP)
          .extractingByKey("severity").isIn("warning", "critical");
      assertThat(rule.get("annotations")).asInstanceOf(MAP)
          .containsKeys("summary", "description");
    });
    assertThat(rules).extracting(rule -> rule.get("expr").toString().replaceAll("\\s+", " "))
        .containsExactly(
            "max by (job, tollgate_provider) (max_over_time(tollgate_breaker_state[1m])) == 2",
            "sum by (job) (rate(tollgate_decisions_total{tollgate_decision=~\"denied|unavailable|missing_tenant"
                + "|invalid_tenant|unknown_tenant\"}[5m])) / sum by (job) (rate(tollgate_decisions_total[5m])) > 0.05",
            "max by (job, instance) (tollgate_limiter_degraded) == 1",
            "max by (job, tollgate_provider, tollgate_model, tollgate_budget_period) (tollgate_budget_used) >= 0.8");

    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    assertThat(dashboard.at("/__inputs/0/name").asText()).isEqualTo("DS_PROMETHEUS");
    List<String> titles = new ArrayList<>();
    dashboard.get("panels").forEach(panel -> {
      titles.add(panel.get("title").asText());
      assertThat(panel.at("/datasource/uid").asText()).isEqualTo("${DS_PROMETHEUS}");
    });
    assertThat(titles).containsExactly("Decisions per second by decision", "Refusal ratio",
        "Breaker state per provider", "Fallbacks per second", "Limiter latency p99",
        "Tokens used per second", "Cost per hour (USD)", "Budget used per provider", "Redis degraded",
        "Redis pool exhausted");
  }

  private Set<String> dashboardMetrics() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    Set<String> names = new TreeSet<>();
    dashboard.get("panels").forEach(panel -> panel.get("targets").forEach(target ->
        names.addAll(metricNames(target.get("expr").asText()))));
    dashboard.at("/templating/list").forEach(variable ->
        names.addAll(metricNames(variable.get("definition").asText())));
    return names;
  }

  private Set<String> alertMetrics() throws Exception {
    Set<String> names = new TreeSet<>();
    alertRules().forEach(rule -> names.addAll(metricNames(rule.get("expr").toString())));
    return names;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> alertRules() throws Exception {
    Map<String, Object> file = new Yaml().load(Files.readString(ALERTS));
    List<Map<String, Object>> rules = new ArrayList<>();
    for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
      rules.addAll((List<Map<String, Object>>) group.get("rules"));
    }
    return rules;
  }

  /**
   * The metrics a PromQL expression reads: its {@code tollgate_} names once string literals,
   * label matchers and grouping clauses (which hold label names such as {@code tollgate_provider})
   * are taken out.
   */
  static Set<String> metricNames(String promql) {
    String bare = promql.replaceAll("\"[^\"]*\"", "\"\"")
        .replaceAll("\\{[^}]*}", "")
        .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", "");
    Set<String> names = new TreeSet<>();
    Matcher matcher = Pattern.compile("\\btollgate_[a-z_]+\\b").matcher(bare);
    while (matcher.find()) {
      names.add(matcher.group());
    }
    return names;
  }

  /** The metric names of a Prometheus text scrape (each sample's name, before its labels). */
  static Set<String> scrapedNames(String scrape) {
    Set<String> names = new TreeSet<>();
    scrape.lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
        .forEach(line -> names.add(line.split("[{ ]", 2)[0]));
    return names;
  }

  /**
   * A file of the repository's docs/grafana: {@code ../docs/grafana} from spring-autoconfig, one
   * level further up from boot4-it, which runs these same sources.
   */
  static Path grafana(String file) {
    for (Path module = Path.of("").toAbsolutePath(); module != null; module = module.getParent()) {
      Path found = module.resolve("docs/grafana").resolve(file);
      if (Files.isRegularFile(found)) {
        return found;
      }
    }
    throw new IllegalStateException("no docs/grafana/" + file + " above " + Path.of("").toAbsolutePath());
  }

  private int call(MockLlmServer provider) {
    return restClients.baseUrl(provider.baseUrl()).build().post().uri("/v1/chat/completions")
        .header("Authorization", "Bearer sk-app")
        .contentType(MediaType.APPLICATION_JSON).body(CHAT)
        .exchange((request, response) -> {
          response.getBody().readAllBytes(); // the end of the body settles the call
          return response.getStatusCode().value();
        });
  }

  private String get(String path) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + environment.getProperty("local.server.port") + path))
        .header("Accept", "text/plain").GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    return response.body();
  }
}
