package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.testkit.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A tenant's daily budget in a real Boot app: the filter reserves each request's priced estimate,
 * settles it at the cost of the usage the app answers with, refuses a spent budget with
 * {@code insufficient_quota}, and the actuator endpoint shows what was spent.
 *
 * <p>gpt-4o here costs nothing per input token and 10 USD per million output tokens: a request of
 * {@code max_tokens} 16 is reserved at 160 µUSD, and the app's answer (7 output tokens) costs 70.
 */
@SpringBootTest(classes = TestApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "tollgate.prices.gpt-4o.input=0",
    "tollgate.prices.gpt-4o.output=10",
    "tollgate.tenants.header=X-Tenant-Id",
    "tollgate.tenants.limits.usd-per-day=0.0003",
    "management.endpoints.web.exposure.include=tollgate"})
class SpendAppTest {

  static final RedisServer redis = RedisServer.start();
  static final String CHAT =
      "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";
  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();

  @Autowired
  Environment environment;

  @DynamicPropertySource
  static void fixtures(DynamicPropertyRegistry registry) {
    registry.add("tollgate.redis.url", () -> redis.uri().toString());
    registry.add("tollgate.redis.timeout", () -> "2s");
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @BeforeEach
  void freshBudgets() {
    redis.flushAll();
  }

  @Test
  void aSpentBudgetIsRefusedWithInsufficientQuotaAndTheActuatorShowsTheSpend() throws Exception {
    List<Integer> statuses = new ArrayList<>();
    HttpResponse<String> last = null;
    for (int i = 0; i < 4; i++) {
      last = inbound("acme");
      statuses.add(last.statusCode());
    }

    // 300 µUSD: three reserves of 160 fit, each settled at 70; the fourth finds 90 left
    assertThat(statuses).containsExactly(200, 200, 200, 429);
    JsonNode error = JSON.readTree(last.body()).get("error");
    assertThat(error.get("code").asText()).isEqualTo("insufficient_quota");
    assertThat(error.get("message").asText()).isEqualTo("You exceeded your current quota: the spend"
        + " budget of 0.0003 USD per day (UTC) is used up (Remaining 0.00009 USD, Requested 0.00016"
        + " USD); it starts again at " + LocalDate.now(ZoneOffset.UTC).plusDays(1) + "T00:00:00Z."
        + " (Tollgate)");
    assertThat(last.headers().firstValue("x-tollgate")).contains("budget-spent");

    JsonNode acme = JSON.readTree(get("/actuator/tollgate/acme").body());
    assertThat(acme.at("/limits/usd-per-day").decimalValue()).isEqualByComparingTo("0.0003");
    JsonNode spent = acme.at("/inbound/usd-per-day");
    assertThat(spent.get("limitUsd").decimalValue()).isEqualByComparingTo("0.0003");
    assertThat(spent.get("spentUsd").decimalValue()).isEqualByComparingTo("0.00021");
    assertThat(spent.get("remainingUsd").decimalValue()).isEqualByComparingTo("0.00009");
    assertThat(acme.at("/outbound/usd-per-day/spentUsd").decimalValue()).isEqualByComparingTo("0");
  }

  private HttpResponse<String> inbound(String tenant) throws Exception {
    return http.send(HttpRequest.newBuilder(local("/v1/chat/completions"))
        .header("X-Tenant-Id", tenant)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(CHAT))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(local(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI local(String path) {
    return URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + path);
  }
}
