package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Credentials stay with the origin they were sent to, through every client the agent hooks, in an
 * unmodified app: a rerouted call reaches the fallback with only known-safe headers, its own key
 * and no key in the query; and no key of the app's or of the fallback's follows a redirect to
 * another origin, while a redirect within the origin keeps them.
 *
 * <p>The app sends its keys in {@code api-key}, {@code x-api-key} and gateway headers, not in
 * {@code Authorization}: HttpClient 5.5 and later refuse to follow a redirect to another host of a
 * request with {@code Authorization} (and OkHttp drops that one header itself), so without it every
 * client follows every redirect here and only Tollgate keeps the keys back.
 */
class CredentialIsolationAgentIT {

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();
  /** Another origin (the same host, another port): where the redirects point. */
  @AutoClose static final MockLlmServer elsewhere = MockLlmServer.start();

  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the agent\"}]}";
  private static final String KEYS_IN_THE_QUERY = "?api-key=q-api-key&key=q-key&subscription-key=q-sub&code=q-code";
  private static final String DEPLOYMENT = "/openai/deployments/gpt-4o/chat/completions";

  /** Every header the app sends beside its body's content type; secrets have values starting with "secret-". */
  private static final Map<String, String> APP_HEADERS = Map.of(
      "api-key", "secret-app-azure",
      "x-api-key", "secret-app-anthropic",
      "cf-aig-authorization", "Bearer secret-app-gateway",
      "helicone-auth", "Bearer secret-app-helicone",
      "x-goog-api-key", "secret-app-google",
      "x-my-gateway-key", "secret-app-configured",
      "anthropic-beta", "secret-app-made-secret-by-configuration", // allowed, but named a secret

      "openai-organization", "secret-org-of-the-primary",
      "x-request-id", "req-1",
      "openai-beta", "assistants=v2");

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"okhttp-3", "okhttp-4", "okhttp-5", "jdk", "apache-classic-4",
      "apache-classic-5", "apache-async-5", "apache-classic-5.1", "apache-async-5.1"})
  void keysStayWithTheirOriginOnARerouteAndAcrossRedirects(String name) throws Exception {
    Client client = Client.of(name);
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          credential-headers: [x-my-gateway-key, anthropic-beta]
          providers:
            primary:
              base-url: %s
              api: openai
              fallbacks: [backup]
            backup:
              base-url: %s
              api: azure-openai
              api-key: ${BACKUP_KEY}
        """.formatted(primary.baseUrl(), backup.baseUrl()));
    int redirect = client.redirectStatus;
    // 1: the primary itself redirects elsewhere; 2 and 3: it refuses, and the backup takes them:
    // it redirects within its origin, then to another (the second redirect answers 2's re-sent
    // POST after a 307, 3's POST after a 303, whose GET draws no scripted answer)
    primary.script().next(1, Fault.redirect(redirect, elsewhere.baseUrl() + "/v1/chat/completions"))
        .always(Fault.rateLimited(Duration.ZERO));
    backup.script().next(1, Fault.redirect(redirect, backup.baseUrl() + DEPLOYMENT + "?api-version=2024-10-21"))
        .next(1, Fault.redirect(redirect, elsewhere.baseUrl() + DEPLOYMENT + "?api-version=2024-10-21"));

    Run run = client.app(dir.resolve("app"))
        .withAgent("config=" + config)
        .env("APP_KEY", "-")
        .env("APP_HEADERS", APP_HEADERS.entrySet().stream()
            .map(header -> header.getKey() + ": " + header.getValue()).collect(Collectors.joining("|")))
        .env("BACKUP_KEY", "backup-secret")
        .calls(3, client.mode, primary.baseUrl() + "/v1/chat/completions" + KEYS_IN_THE_QUERY, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.tollgateLines()).as(run.toString()).noneMatch(line -> line.contains("internal failure"));

    // the provider the app addressed gets the app's own keys and query
    RecordedRequest first = primary.requests().get(0);
    assertThat(first.header("api-key")).isEqualTo("secret-app-azure");
    assertThat(first.header("helicone-auth")).isEqualTo("Bearer secret-app-helicone");
    assertThat(first.queryParameter("key")).isEqualTo("q-key");
    assertThat(primary.requests()).hasSize(1 + 2 * (1 + client.retries429));

    // the backup: only safe headers and its own key, Azure's api-version alone in the query; the
    // redirect within its origin (its second request) keeps its key
    List<RecordedRequest> atBackup = backup.requests();
    assertThat(atBackup).extracting(RecordedRequest::path)
        .containsExactly(DEPLOYMENT, DEPLOYMENT, DEPLOYMENT);
    assertThat(atBackup).allSatisfy(r -> {
      assertThat(r.header("api-key")).isEqualTo("backup-secret");
      assertThat(r.query()).isEqualTo("api-version=2024-10-21");
      assertThat(names(r)).isSubsetOf(union(ALLOWED_ON_THE_WIRE, Set.of("api-key")));
      assertNoSecretIn(r);
    });
    assertThat(atBackup.get(0).header("content-type")).startsWith("application/json");
    assertThat(atBackup.get(0).header("openai-beta")).isEqualTo("assistants=v2");
    assertThat(atBackup.get(0).header("x-request-id")).isEqualTo("req-1"); // a correlation id follows

    // elsewhere: the primary's redirect and the backup's, neither with a key
    List<RecordedRequest> atElsewhere = elsewhere.requests();
    assertThat(atElsewhere).extracting(RecordedRequest::path)
        .containsExactly("/v1/chat/completions", DEPLOYMENT);
    assertThat(atElsewhere).allSatisfy(r -> {
      assertThat(names(r)).isSubsetOf(ALLOWED_ON_THE_WIRE);
      assertNoSecretIn(r);
    });
    assertThat(atElsewhere.get(0).header("openai-beta")).isEqualTo("assistants=v2");

    assertThat(run.calls()).extracting(AppCall::status).as(run.toString()).containsExactly(client.statuses);
  }

  /** What may reach another origin: the allow-list, and the framing the client writes itself. */
  private static final Set<String> ALLOWED_ON_THE_WIRE = union(CrossOriginHeaders.SAFE, CrossOriginHeaders.FRAMING);

  private static void assertNoSecretIn(RecordedRequest request) {
    assertThat(request.headers().values().stream().flatMap(List::stream))
        .as("%s", request.headers())
        .noneMatch(value -> value.contains("secret-"));
    assertThat(request.query() == null ? "" : request.query()).doesNotContain("q-");
  }

  private static Set<String> names(RecordedRequest request) {
    return request.headers().keySet().stream().map(name -> name.toLowerCase(Locale.ROOT))
        .collect(Collectors.toSet());
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    return Stream.concat(a.stream(), b.stream()).collect(Collectors.toSet());
  }

  @BeforeEach
  void reset() {
    primary.reset();
    backup.reset();
    elsewhere.reset();
  }

  /**
   * A client line's app, how it calls, the redirect it follows for a POST (OkHttp 3 and HttpClient
   * 4.5 follow a 307 only for GET and HEAD, a 303 for any method, as a GET), the statuses the app
   * gets, and how often the client re-sends a 429 itself (HttpClient 5 once).
   */
  private record Client(String libs, String mainClass, String mode, int redirectStatus,
      Integer[] statuses, int retries429) {

    /** After a 307: 200 (elsewhere's answer), 401 (elsewhere, as Azure: no key), 200 (the backup's). */
    private static final Integer[] AFTER_307 = {200, 401, 200};
    /** After a 303, a GET of an API path: 405 everywhere. */
    private static final Integer[] AFTER_303 = {405, 405, 405};

    static Client of(String name) {
      return switch (name) {
        case "okhttp-3" -> new Client("okhttp-3", null, "sync", 303, AFTER_303, 0);
        case "okhttp-4" -> new Client("okhttp-4", null, "sync", 307, AFTER_307, 0);
        case "okhttp-5" -> new Client("okhttp-5", null, "sync", 307, AFTER_307, 0);
        case "jdk" -> new Client(null, "io.tollgate.agent.it.app.JdkHttpClientApp", "send", 307, AFTER_307, 0);
        case "apache-classic-4" -> new Client("apache-4", "io.tollgate.agent.it.app.ApacheClassic4App",
            "sync", 303, AFTER_303, 0);
        case "apache-classic-5" -> new Client("apache-5", "io.tollgate.agent.it.app.ApacheClassic5App",
            "sync", 307, AFTER_307, 1);
        case "apache-async-5" -> new Client("apache-5", "io.tollgate.agent.it.app.ApacheAsync5App",
            "future", 307, AFTER_307, 1);
        case "apache-classic-5.1" -> new Client("apache-5-oldest",
            "io.tollgate.agent.it.app.ApacheClassic5App", "sync", 307, AFTER_307, 1);
        case "apache-async-5.1" -> new Client("apache-5-oldest",
            "io.tollgate.agent.it.app.ApacheAsync5App", "future", 307, AFTER_307, 1);
        default -> throw new IllegalArgumentException(name);
      };
    }

    ForkedApp app(Path workDir) {
      if (libs == null) {
        return ForkedApp.launcher(workDir, ForkedApp.appClasses().toString(), mainClass)
            .jvmOption("-Dapp.redirects=normal");
      }
      return mainClass == null ? ForkedApp.okhttp(libs.substring("okhttp-".length()), workDir)
          : ForkedApp.client(libs, mainClass, workDir);
    }
  }
}
