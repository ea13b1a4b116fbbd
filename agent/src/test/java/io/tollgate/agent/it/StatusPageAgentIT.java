package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.llm.MockLlmServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page the agent serves on {@code tollgate.status.port} while an unmodified app
 * ({@code JdkHttpClientApp}, held open after its calls) runs: what the page shows of the app's
 * calls, from the shaded jar, and the token its data needs. One app for all of it: a fork is the
 * slow part.
 */
class StatusPageAgentIT {

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();

  private static final String TOKEN = "status-token-of-the-agent-it";
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":30,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the page\"}]}";

  private final HttpClient http = HttpClient.newHttpClient();

  @TempDir Path dir;

  @Test
  void showsTheAppsCallsToWhoeverHoldsTheToken() throws Exception {
    int port = freePort();
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 2
          status:
            port: %d
            bind: 127.0.0.1
            token: %s
        """.formatted(primary.baseUrl(), port, TOKEN));
    String url = primary.baseUrl() + "/v1/chat/completions";
    ForkedApp app = ForkedApp.launcher(dir.resolve("app"), ForkedApp.appClasses().toString(),
            "io.tollgate.agent.it.app.JdkHttpClientApp")
        .withAgent("config=" + config)
        .jvmOption("-Dapp.hold=true")
        .calls(3, "send", url, CHAT);
    Process process = app.start();
    String page = "http://127.0.0.1:" + port + "/";
    HttpResponse<String> withoutToken;
    HttpResponse<String> wrongToken;
    HttpResponse<String> data;
    HttpResponse<String> html;
    try {
      app.awaitOutput(process, "app done");
      withoutToken = get(page + "?view=status", null);
      wrongToken = get(page + "?view=status", "Bearer not-" + TOKEN);
      data = get(page + "?view=status", "Bearer " + TOKEN);
      html = http.send(HttpRequest.newBuilder(URI.create(page))
          .header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8").build(),
          HttpResponse.BodyHandlers.ofString());
    } finally {
      process.getOutputStream().close();
    }
    Run run = app.await(process);

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200, 200, 429);
    assertThat(run.tollgateLines()).as(run.toString()).hasSize(2);
    assertThat(run.tollgateLines().get(1)).isEqualTo("[tollgate] status page: " + page);

    assertThat(withoutToken.statusCode()).isEqualTo(401);
    assertThat(withoutToken.body()).isEqualTo(
        "{\"error\":\"a valid bearer token is required (tollgate.status.token)\"}");
    assertThat(withoutToken.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"tollgate\"");
    assertThat(wrongToken.statusCode()).isEqualTo(401);
    assertThat(wrongToken.body()).isEqualTo(withoutToken.body());

    assertThat(data.statusCode()).isEqualTo(200);
    assertThat(data.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode report = new ObjectMapper().readTree(data.body());
    assertThat(report.get("version").asText()).isEqualTo(ForkedApp.agentVersion());
    JsonNode provider = report.get("providers").get(0);
    assertThat(provider.get("name").asText()).isEqualTo("primary");
    assertThat(provider.get("answered").asLong()).isEqualTo(2);
    assertThat(provider.get("refused").asLong()).isEqualTo(1);
    JsonNode account = report.get("limits").get(0).get("outbound").get(0);
    assertThat(account.get("limit").asText()).isEqualTo("requests-per-hour");
    assertThat(account.get("remaining").asLong()).isZero();
    JsonNode self = report.get("fleet").get(0);
    assertThat(self.get("frontEnd").asText()).isEqualTo("agent");
    assertThat(self.get("version").asText()).isEqualTo(ForkedApp.agentVersion());
    assertThat(self.get("self").asBoolean()).isTrue();
    JsonNode refusal = report.get("decisions").get(0);
    assertThat(refusal.get("decision").asText()).isEqualTo("denied");
    assertThat(refusal.get("limit").asText()).isEqualTo("provider:requests-per-hour");

    assertThat(html.statusCode()).isEqualTo(200);
    assertThat(html.headers().firstValue("Content-Security-Policy")).get().asString()
        .startsWith("default-src 'none'; connect-src 'self';").contains("script-src 'sha256-");
    assertThat(html.body()).contains("<title>Tollgate status</title>").doesNotContain("primary");
  }

  private HttpResponse<String> get(String url, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A port free now, for the app's agent to bind: the page must be found where it was put. */
  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
