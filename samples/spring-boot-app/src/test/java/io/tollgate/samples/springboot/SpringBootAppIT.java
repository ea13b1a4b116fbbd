package io.tollgate.samples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.limiter.Subject;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the sample's executable jar in its own JVM, as {@code java -jar} would, against two mock
 * providers: the tenant's limit through the filter, the provider's limit and the fallback through
 * the app's RestClient, the tenant charged for the calls it caused, and the actuator's answers.
 */
class SpringBootAppIT {

  static final MockLlmServer primary = MockLlmServer.start();
  static final MockLlmServer backup = MockLlmServer.start();
  static final ObjectMapper JSON = new ObjectMapper();
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";

  static Process app;
  static int port;
  static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @BeforeAll
  static void startApp() throws Exception {
    port = freePort();
    Path log = Path.of(System.getProperty("sample.jar")).resolveSibling("sample-app.log");
    app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", System.getProperty("sample.jar"),
        "--server.port=" + port,
        "--chat.upstream=" + primary.baseUrl(),
        "--chat.api-key=sk-app",
        "--tollgate.providers.openai.limits.requests-per-hour=2",
        "--tollgate.providers.openai.fallbacks=backup",
        "--tollgate.providers.backup.base-url=" + backup.baseUrl(),
        "--tollgate.providers.backup.api-key=sk-backup",
        "--tollgate.tenants.limits.requests-per-hour=3")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (true) {
      assertThat(app.isAlive()).as("the app is running; its log: %s", log).isTrue();
      try {
        if (get("/actuator/health").statusCode() == 200) {
          break;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      assertThat(System.nanoTime()).as("the app answered /actuator/health within 120 s; its log: %s", log)
          .isLessThan(deadline);
      Thread.onSpinWait();
      TimeUnit.MILLISECONDS.sleep(200); // polling interval while the JVM starts, not a wait for a result
    }
    assertThat(Files.readString(log)).contains("Started ChatProxyApplication");
  }

  @AfterAll
  static void stop() throws Exception {
    if (app != null) {
      app.destroy();
      if (!app.waitFor(30, TimeUnit.SECONDS)) {
        app.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    }
    primary.close();
    backup.close();
  }

  @Test
  void limitsTheTenantAndTheProviderAndFallsBack() throws Exception {
    List<Integer> statuses = new ArrayList<>();
    List<HttpResponse<String>> answers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      HttpResponse<String> answer = http.send(HttpRequest.newBuilder(local("/v1/chat/completions"))
          .header("X-Tenant-Id", "acme")
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(CHAT)).build(), HttpResponse.BodyHandlers.ofString());
      answers.add(answer);
      statuses.add(answer.statusCode());
    }
    // two on the primary, the third on the backup (the primary's limit is 2), the fourth over the tenant's 3
    assertThat(statuses).containsExactly(200, 200, 200, 429);
    assertThat(JSON.readTree(answers.get(2).body()).get("model").asText()).isEqualTo("gpt-4o-mini");
    assertThat(answers.get(3).headers().firstValue("x-tollgate")).contains("rate-limited");

    List<RecordedRequest> onPrimary = primary.awaitRequests(2, Duration.ofSeconds(10));
    List<RecordedRequest> onBackup = backup.awaitRequests(1, Duration.ofSeconds(10));
    assertThat(primary.requestCount()).isEqualTo(2);
    assertThat(backup.requestCount()).isEqualTo(1);
    assertThat(onPrimary).extracting(r -> r.header("authorization")).containsExactly("Bearer sk-app", "Bearer sk-app");
    assertThat(onBackup.get(0).header("authorization")).isEqualTo("Bearer sk-backup");
    assertThat(onBackup.get(0).json().get("model").asText()).isEqualTo("gpt-4o-mini");

    // the filter bound acme to each request: its three LLM calls were charged to it too
    JsonNode acme = JSON.readTree(get("/actuator/tollgate/acme").body());
    assertThat(acme.get("tenant").asText()).isEqualTo(Subject.of("tenant", "acme").idHash());
    assertThat(acme.at("/inbound/remainingRequests").asLong()).isZero();
    assertThat(acme.at("/outbound/remainingRequests").asLong()).isZero();

    JsonNode health = JSON.readTree(get("/actuator/health").body()).at("/components/tollgate");
    assertThat(health.get("status").asText()).isEqualTo("UP");
    assertThat(health.at("/details/limiter").asText()).isEqualTo("in-memory");
  }

  private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(local(path)).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static URI local(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
