package io.tollgate.samples.webxml;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Deploys the built WAR (target/tollgate-sample-webxml-app.war, set by failsafe as {@code
 * sample.war}) into an embedded Jetty 12 ee10 {@link WebAppContext}: the filter, its configuration
 * and the servlet all come from the WAR's web.xml, WEB-INF/classes and WEB-INF/lib.
 */
class WebXmlAppIT {

  private static final String CHAT = "{\"model\":\"gpt-4o-mini\",\"max_tokens\":50,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}]}";

  private static Server server;
  private static WebAppContext webapp;
  private static URI chat;
  private static final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void deploy() throws Exception {
    Path war = Path.of(System.getProperty("sample.war", "target/tollgate-sample-webxml-app.war"));
    assertThat(war).as("the WAR is built by package before integration-test").isRegularFile();
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0); // a free port
    server.addConnector(connector);
    webapp = new WebAppContext();
    webapp.setContextPath("/");
    webapp.setWar(war.toString());
    webapp.setTempDirectory(Files.createTempDirectory("webxml-app").toFile());
    webapp.setThrowUnavailableOnStartupException(true);
    server.setHandler(webapp);
    server.start();
    chat = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/v1/chat/completions");
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void theFilterIsLoadedFromTheWarsWebInfLib() throws Exception {
    assertThat(webapp.isAvailable()).isTrue();
    Class<?> filter = webapp.getClassLoader().loadClass("io.tollgate.servlet.TollgateFilter");
    assertThat(filter.getProtectionDomain().getCodeSource().getLocation().toString())
        .contains("WEB-INF/lib/tollgate-servlet-filter-");
  }

  @Test
  void threeCallsAMinuteThenA429ThenTenantsAreIndependent() throws Exception {
    for (int remaining = 2; remaining >= 0; remaining--) {
      HttpResponse<String> ok = post("acme");
      assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
      assertThat(ok.headers().firstValue("x-ratelimit-remaining-requests"))
          .hasValue(Integer.toString(remaining));
      assertThat(ok.headers().firstValue("x-ratelimit-limit-requests")).hasValue("3");
      assertThat(ok.body())
          .contains("\"object\":\"chat.completion\"")
          .contains("\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":9,\"total_tokens\":21}");
    }

    HttpResponse<String> refused = post("acme");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(
        seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 60));
    assertThat(refused.headers().firstValue("x-tollgate")).hasValue("rate-limited");
    assertThat(refused.headers().firstValue("x-ratelimit-remaining-requests")).hasValue("0");
    assertThat(refused.body())
        .startsWith("{\"error\":{\"message\":\"Rate limit reached on requests per min (RPM): Limit 3, Remaining 0.")
        .contains("\"type\":\"requests\"")
        .contains("\"code\":\"rate_limit_exceeded\"");

    HttpResponse<String> other = post("globex");
    assertThat(other.statusCode()).as(other.body()).isEqualTo(200);
    assertThat(other.headers().firstValue("x-ratelimit-remaining-requests")).hasValue("2");
    assertThat(other.body()).contains("\"total_tokens\":21");
  }

  @Test
  void aCallWithoutTheTenantHeaderIsA400() throws Exception {
    HttpResponse<String> missing = post(null);
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(missing.body()).isEqualTo("{\"error\":{\"message\":\"Missing tenant: this endpoint "
        + "needs the X-Tenant-Id header to know who is calling. (Tollgate)\","
        + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"missing_tenant\"}}");
  }

  private static HttpResponse<String> post(String tenant) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(chat)
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(CHAT));
    if (tenant != null) {
      request.header("X-Tenant-Id", tenant);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
