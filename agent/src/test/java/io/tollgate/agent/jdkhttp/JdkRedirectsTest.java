package io.tollgate.agent.jdkhttp;

import static io.tollgate.agent.HelperConfigs.config;
import static io.tollgate.agent.HelperConfigs.primaryFallingBackTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.gate.Gate;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redirects of the calls Tollgate sends through a JDK {@code HttpClient} that follows them: the
 * client's own rules, but no credential leaves the origin the call went to. The hook wired by hand,
 * as in {@link JdkHttpHookTest}.
 */
class JdkRedirectsTest {

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();
  @AutoClose static final MockLlmServer elsewhere = MockLlmServer.start();

  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":100,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

  private final HttpClient following = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NORMAL).build();
  private Gate gate;
  private JdkHttpHook hook;

  @BeforeEach
  void reset() {
    primary.reset();
    backup.reset();
    elsewhere.reset();
  }

  @AfterEach
  void close() {
    if (gate != null) {
      gate.close();
    }
  }

  @Test
  void aProvidersRedirectToAnotherOriginCarriesOnlySafeHeaders() throws Throwable {
    gate(primaryFallingBackTo(primary.baseUrl(), backup.baseUrl()));
    primary.script().next(1, Fault.redirect(307, elsewhere.baseUrl() + "/v1/chat/completions"));

    HttpResponse<String> response = send(following, withAppsCredentials(chat(primary)));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.uri()).isEqualTo(URI.create(elsewhere.baseUrl() + "/v1/chat/completions"));
    assertThat(primary.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer app-key");
      assertThat(r.header("api-key")).isEqualTo("az-app-key");
    });
    RecordedRequest redirected = elsewhere.requests().get(0);
    assertThat(elsewhere.requests()).hasSize(1);
    assertThat(lowerCase(redirected.headers().keySet())).containsExactlyInAnyOrder(
        "content-length", "host", "user-agent", "content-type", "openai-beta");
    assertThat(redirected.method()).isEqualTo("POST");
    assertThat(redirected.bodyText()).isEqualTo(CHAT);
  }

  @Test
  void aRedirectWithinTheOriginKeepsTheCredentials() throws Throwable {
    gate(primaryFallingBackTo(primary.baseUrl(), backup.baseUrl()));
    primary.script().next(1, Fault.redirect(308, "/v1/chat/completions?moved=1"));

    HttpResponse<String> response = send(following, withAppsCredentials(chat(primary)));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(primary.requests()).hasSize(2).allSatisfy(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer app-key");
      assertThat(r.header("api-key")).isEqualTo("az-app-key");
      assertThat(r.header("helicone-auth")).isEqualTo("Bearer helicone-key");
    });
    assertThat(primary.requests().get(1).query()).isEqualTo("moved=1");
  }

  @Test
  void aFallbacksRedirectKeepsItsKeyOnItsOriginOnly() throws Throwable {
    gate("""
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
              fallbacks: [backup]
            backup:
              base-url: %s
              api: azure-openai
              api-key: backup-key
        """.formatted(primary.baseUrl(), backup.baseUrl()));
    primary.script().always(Fault.rateLimited(Duration.ofSeconds(30)));
    String deployment = "/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21";
    backup.script().next(1, Fault.redirect(307, backup.baseUrl() + deployment))
        .next(1, Fault.redirect(307, elsewhere.baseUrl() + deployment));

    HttpResponse<String> response = send(following, withAppsCredentials(chat(primary)));

    assertThat(response.statusCode()).as("Azure's answer to a call without its key").isEqualTo(401);
    assertThat(backup.requests()).hasSize(2)
        .allSatisfy(r -> assertThat(r.header("api-key")).isEqualTo("backup-key"));
    assertThat(elsewhere.requests()).singleElement().satisfies(r -> {
      assertThat(r.path()).isEqualTo("/openai/deployments/gpt-4o/chat/completions");
      assertThat(lowerCase(r.headers().keySet())).containsExactlyInAnyOrder(
          "content-length", "host", "user-agent", "content-type", "openai-beta");
    });
  }

  @Test
  void followsAsTheClientWouldASeeOtherAsAGetAndNotAtAllWithoutARedirectPolicy() throws Throwable {
    gate(primaryFallingBackTo(primary.baseUrl(), backup.baseUrl()));
    primary.script().next(1, Fault.redirect(303, elsewhere.baseUrl() + "/v1/models"))
        .next(1, Fault.redirect(303, elsewhere.baseUrl() + "/v1/models"));

    HttpResponse<String> seeOther = send(following, withAppsCredentials(chat(primary)));
    HttpClient never = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpResponse<String> notFollowed = send(never, withAppsCredentials(chat(primary)));

    assertThat(seeOther.statusCode()).isEqualTo(200);
    assertThat(elsewhere.requests()).singleElement().satisfies(r -> {
      assertThat(r.method() + " " + r.path()).isEqualTo("GET /v1/models");
      assertThat(r.header("authorization")).isNull();
      assertThat(r.header("api-key")).isNull();
    });
    assertThat(notFollowed.statusCode()).isEqualTo(303);
    assertThat(notFollowed.headers().firstValue("location")).contains(elsewhere.baseUrl() + "/v1/models");
  }

  private static HttpRequest withAppsCredentials(HttpRequest request) {
    return HttpRequest.newBuilder(request, (name, value) -> true)
        .header("api-key", "az-app-key")
        .header("x-api-key", "ant-app-key")
        .header("helicone-auth", "Bearer helicone-key")
        .header("x-my-gateway-key", "gateway-key")
        .header("OpenAI-Beta", "assistants=v2")
        .build();
  }

  private HttpResponse<String> send(HttpClient client, HttpRequest request) throws Throwable {
    Object answer = hook.onSend(client, request, HttpResponse.BodyHandlers.ofString());
    if (answer instanceof Throwable thrown) {
      throw thrown;
    }
    @SuppressWarnings("unchecked")
    HttpResponse<String> response = (HttpResponse<String>) answer;
    return response;
  }

  private void gate(String yaml) {
    gate = Gate.create(config(yaml));
    hook = new JdkHttpHook(gate);
  }

  private static HttpRequest chat(MockLlmServer server) {
    return HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/chat/completions"))
        .header("Content-Type", "application/json")
        .header("Authorization", "Bearer app-key")
        .POST(HttpRequest.BodyPublishers.ofString(CHAT))
        .build();
  }

  private static List<String> lowerCase(Collection<String> names) {
    return names.stream().map(name -> name.toLowerCase(Locale.ROOT)).toList();
  }
}
