package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.llm.MockLlmServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A provider's health counts what its own account has left, not what a tenant has: a tenant that
 * spends its limit on the fallback must not score the fallback down for every other tenant.
 */
class GateTenantHealthTest {

  @Test
  void aTenantThatSpentItsLimitOnTheFallbackLeavesTheFallbackToOthers() throws Exception {
    try (MockLlmServer primary = MockLlmServer.start(); MockLlmServer backup = MockLlmServer.start();
        Gate gate = Gate.create(config("""
            tollgate:
              providers:
                primary:
                  base-url: %s
                  limits:
                    requests-per-hour: 2
                  fallbacks: [backup]
                backup:
                  base-url: %s
                  api-key: sk-backup
                  model-map:
                    gpt-4o: gpt-4o-mini
              tenants:
                header: X-Tenant-Id
                limits:
                  requests-per-hour: 3
            """.formatted(primary.baseUrl(), backup.baseUrl()), Map.of()))) {
      JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));
      List<String> answered = new ArrayList<>();
      for (String tenant : List.of("acme", "acme", "acme", "globex", "acme")) {
        try (Tenants.Scope bound = Tenants.bind(tenant)) {
          CallResult<HttpResponse<InputStream>> result =
              gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);
          answered.add(tenant + ":" + result.provider() + ":" + status(result));
        }
      }

      // acme's third call spends its tenant limit on the backup; globex still gets the backup
      assertThat(answered).containsExactly("acme:primary:200", "acme:primary:200", "acme:backup:200",
          "globex:backup:200", "acme:primary:429");
      assertThat(primary.requestCount()).isEqualTo(2);
      assertThat(backup.requestCount()).isEqualTo(2);
    }
  }
}
