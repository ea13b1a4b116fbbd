package io.tollgate.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.gate.Gate;
import io.tollgate.gate.GateTestAccess;
import io.tollgate.testkit.llm.MockLlmServer;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The report a gate makes of its own calls, read as the JSON API writes it. */
class StatusReportsTest {

  private MockLlmServer primary;
  private MockLlmServer backup;
  private Gate gate;

  @BeforeEach
  void start() {
    primary = MockLlmServer.start();
    backup = MockLlmServer.start();
    gate = Gate.create(TollgateConfigLoader.create().fromYaml("""
        tollgate:
          providers:
            primary:
              base-url: %s
              fallbacks: [backup]
              limits:
                requests-per-minute: 10
                usd-per-day: 5
            backup:
              base-url: %s
          tenants:
            header: X-Tenant-Id
            limits:
              requests-per-minute: 3
            overrides:
              premium:
                requests-per-minute: 100
        """.formatted(primary.baseUrl(), backup.baseUrl())));
  }

  @AfterEach
  void stop() {
    gate.close();
    primary.close();
    backup.close();
  }

  @Test
  void showsWhatEachLimitHasLeftTheTenantsByHashAndTheRefusals() throws Exception {
    for (int i = 0; i < 4; i++) {
      GateTestAccess.callAs(gate, primary.baseUrl(), "acme-7");
    }
    GateTestAccess.callAs(gate, primary.baseUrl(), "premium");
    gate.awaitSettled(Duration.ofSeconds(5));

    JsonNode report = new ObjectMapper().readTree(StatusPage.json(StatusReports.of(gate).current()));

    assertThat(report.get("mode").asText()).isEqualTo("enforce");
    assertThat(report.get("limiter").asText()).isEqualTo("in-memory");
    JsonNode provider = report.get("providers").get(0);
    assertThat(provider.get("name").asText()).isEqualTo("primary");
    assertThat(provider.get("breaker").asText()).isEqualTo("closed");
    assertThat(provider.get("answered").asLong()).isEqualTo(4);
    assertThat(provider.get("refused").asLong()).isEqualTo(1);
    JsonNode account = report.get("limits").get(0);
    assertThat(account.get("name").asText()).isEqualTo("primary");
    assertThat(account.get("outbound").get(0).get("limit").asText()).isEqualTo("requests-per-minute");
    assertThat(account.get("outbound").get(0).get("remaining").asLong()).isEqualTo(6);
    assertThat(account.get("outbound").get(1).get("limit").asText()).isEqualTo("usd-per-day");
    assertThat(account.get("outbound").get(1).get("capacity").decimalValue()).isEqualByComparingTo("5");
    JsonNode busiest = report.get("tenants").get(0);
    assertThat(busiest.get("name").asText()).hasSize(20).isNotEqualTo("acme-7");
    assertThat(busiest.get("calls").asLong()).isEqualTo(4);
    assertThat(busiest.get("refused").asLong()).isEqualTo(1);
    assertThat(busiest.get("outbound").get(0).get("remaining").asLong()).isZero();
    assertThat(report.get("tenants").get(1).get("name").asText()).isEqualTo("premium");
    JsonNode refusal = report.get("decisions").get(0);
    assertThat(refusal.get("decision").asText()).isEqualTo("denied");
    assertThat(refusal.get("limit").asText()).isEqualTo("tenant:requests-per-minute");
    assertThat(refusal.get("tenant").asText()).isEqualTo(busiest.get("name").asText());
    assertThat(report.get("fleet").get(0).get("self").asBoolean()).isTrue();
    assertThat(report.toString()).doesNotContain("acme-7");
  }

  @Test
  void theDataNeedsTheTokenBeyondLoopbackAndThePageHoldsNone() throws Exception {
    StatusPage page = StatusPage.of(gate);
    InetAddress remote = InetAddress.getByName("10.1.2.3");
    InetAddress local = InetAddress.getLoopbackAddress();

    assertThat(page.handle(new StatusPage.Request("GET", "view=status", null, null, local, false))
        .status()).isEqualTo(200);
    StatusPage.Response refused = page.handle(
        new StatusPage.Request("GET", "view=status", null, null, remote, false));
    assertThat(refused.status()).isEqualTo(401);
    assertThat(new String(refused.body())).isEqualTo(
        "{\"error\":\"beyond loopback the status data needs tollgate.status.token, sent as a bearer token\"}");
    assertThat(page.handle(new StatusPage.Request("GET", "view=status", null, null, local, true))
        .status()).isEqualTo(401);
    StatusPage.Response html = page.handle(
        new StatusPage.Request("GET", null, "text/html,*/*", null, remote, false));
    assertThat(html.status()).isEqualTo(200);
    assertThat(html.headers().get("Content-Security-Policy")).contains("script-src 'sha256-");
    assertThat(new String(html.body())).contains("<title>Tollgate status</title>").doesNotContain("primary");
  }
}
