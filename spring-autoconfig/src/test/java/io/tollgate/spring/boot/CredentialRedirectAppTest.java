package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Boot's own RestClient and WebClient (on Reactor Netty here, following redirects as Boot has them
 * by default; RestClient also on the JDK {@code HttpClient} and Apache HttpClient 5) keep a
 * provider call's keys on its origin: a redirect elsewhere carries only the headers that may leave,
 * of the app's call and of a fallback's; a redirect within the origin keeps them; a call to no
 * provider is left alone.
 */
@SpringBootTest(classes = TestApp.class, webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
    "tollgate.providers.openai.fallbacks=backup",
    "tollgate.providers.backup.api=azure-openai",
    "tollgate.providers.backup.api-key=backup-secret",
    "tollgate.credential-headers=x-my-gateway-key"})
class CredentialRedirectAppTest {

  static final MockLlmServer primary = MockLlmServer.start();
  static final MockLlmServer backup = MockLlmServer.start();
  static final MockLlmServer elsewhere = MockLlmServer.start();
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";
  static final String DEPLOYMENT = "/openai/deployments/gpt-4o/chat/completions";
  static final Map<String, String> APP_KEYS = Map.of(
      "Authorization", "Bearer secret-app-openai",
      "api-key", "secret-app-azure",
      "x-api-key", "secret-app-anthropic",
      "helicone-auth", "Bearer secret-app-helicone",
      "x-my-gateway-key", "secret-app-configured");
  /** What may leave, the framing, and the JDK client's own h2c upgrade offer on a cleartext origin. */
  static final Set<String> ALLOWED_ON_THE_WIRE = Stream.of(CrossOriginHeaders.SAFE.stream(),
      CrossOriginHeaders.FRAMING.stream(), Stream.of("upgrade", "http2-settings"))
      .flatMap(names -> names).collect(Collectors.toSet());

  @Autowired
  RestClient.Builder restClients;
  @Autowired
  WebClient.Builder webClients;

  @DynamicPropertySource
  static void fixtures(DynamicPropertyRegistry registry) {
    registry.add("tollgate.providers.openai.base-url", primary::baseUrl);
    registry.add("tollgate.providers.backup.base-url", backup::baseUrl);
  }

  @AfterAll
  static void stopFixtures() {
    primary.close();
    backup.close();
    elsewhere.close();
  }

  @BeforeEach
  void reset() {
    primary.reset();
    backup.reset();
    elsewhere.reset();
  }

  @Test
  void restClientKeepsTheKeysOfTheAppsCallAndOfAFallbackOnTheirOrigins() {
    scriptRedirects();

    List<Integer> statuses = Stream.of(1, 2).map(call -> viaRestClient(primary.baseUrl() + "/v1/chat/completions"))
        .toList();

    assertKeysStayedHome(statuses);
  }

  @Test
  void webClientKeepsTheKeysOfTheAppsCallAndOfAFallbackOnTheirOrigins() {
    scriptRedirects();

    List<Integer> statuses = Stream.of(1, 2).map(call -> viaWebClient(primary.baseUrl() + "/v1/chat/completions"))
        .toList();

    assertKeysStayedHome(statuses);
  }

  @Test
  void aRedirectOfACallToNoProviderIsLeftToTheClient() {
    elsewhere.script().next(1, Fault.redirect(307, primary.baseUrl() + "/v1/chat/completions"));

    assertThat(viaWebClient(elsewhere.baseUrl() + "/v1/chat/completions")).isEqualTo(200);

    assertThat(primary.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("api-key")).isEqualTo("secret-app-azure"));
  }

  /** RestClient on Boot's JDK {@code HttpClient} request factory, which follows redirects itself. */
  @Nested
  @TestPropertySource(properties = {"spring.http.client.factory=jdk", "spring.http.clients.imperative.factory=jdk"})
  class OnTheJdkHttpClient {

    @Autowired
    RestClient.Builder jdkRestClients;

    @Test
    void restClientKeepsTheKeysOfTheAppsCallAndOfAFallbackOnTheirOrigins() {
      scriptRedirects();

      List<Integer> statuses = Stream.of(1, 2)
          .map(call -> viaRestClient(jdkRestClients, primary.baseUrl() + "/v1/chat/completions")).toList();

      assertKeysStayedHome(statuses);
    }

    @Test
    void aSeeOtherBecomesAGetWithoutBodyThatKeepsOnlyWhatMayLeave() {
      primary.script().next(1, Fault.redirect(303, elsewhere.baseUrl() + "/v1/models"));

      assertThat(viaRestClient(jdkRestClients, primary.baseUrl() + "/v1/chat/completions")).isEqualTo(200);

      assertThat(elsewhere.requests()).singleElement().satisfies(r -> {
        assertThat(r.method()).isEqualTo("GET");
        assertThat(r.path()).isEqualTo("/v1/models");
        assertThat(r.header("content-type")).isNull();
        assertThat(r.headers().values().stream().flatMap(List::stream)).noneMatch(value -> value.contains("secret"));
      });
    }

    @Test
    void aRedirectOfACallToNoProviderIsLeftToTheClient() {
      elsewhere.script().next(1, Fault.redirect(307, primary.baseUrl() + "/v1/chat/completions"));

      assertThat(viaRestClient(jdkRestClients, elsewhere.baseUrl() + "/v1/chat/completions")).isEqualTo(200);

      assertThat(primary.requests()).singleElement()
          .satisfies(r -> assertThat(r.header("api-key")).isEqualTo("secret-app-azure"));
    }
  }

  /** RestClient on Boot's Apache HttpClient 5 request factory, which follows redirects itself. */
  @Nested
  @TestPropertySource(properties = {"spring.http.client.factory=http-components",
      "spring.http.clients.imperative.factory=http-components"})
  class OnApacheHttpClient5 {

    @Autowired
    RestClient.Builder apacheRestClients;

    @Test
    void restClientKeepsTheKeysOfTheAppsCallAndOfAFallbackOnTheirOrigins() {
      // a 500, not a 429: Apache's client retries a 429 itself before Tollgate sees it
      scriptRedirects(Fault.status(500));

      List<Integer> statuses = Stream.of(1, 2)
          .map(call -> viaRestClient(apacheRestClients, primary.baseUrl() + "/v1/chat/completions")).toList();

      assertKeysStayedHome(statuses);
    }
  }

  /**
   * 1: the primary redirects elsewhere. 2: it refuses; the backup redirects within its origin,
   * then elsewhere.
   */
  private static void scriptRedirects() {
    scriptRedirects(Fault.rateLimited(Duration.ZERO));
  }

  private static void scriptRedirects(Fault refusal) {
    primary.script().next(1, Fault.redirect(307, elsewhere.baseUrl() + "/v1/chat/completions"))
        .next(1, refusal);
    backup.script().next(1, Fault.redirect(307, backup.baseUrl() + DEPLOYMENT + "?api-version=2024-10-21"))
        .next(1, Fault.redirect(307, elsewhere.baseUrl() + DEPLOYMENT + "?api-version=2024-10-21"));
  }

  private static void assertKeysStayedHome(List<Integer> statuses) {
    assertThat(primary.requests()).hasSize(2).allSatisfy(r -> {
      assertThat(r.header("api-key")).isEqualTo("secret-app-azure");
      assertThat(r.header("x-my-gateway-key")).isEqualTo("secret-app-configured");
    });
    assertThat(backup.requests()).hasSize(2).allSatisfy(r -> {
      assertThat(r.header("api-key")).isEqualTo("backup-secret");
      assertThat(r.header("helicone-auth")).isNull();
    });
    List<RecordedRequest> redirected = elsewhere.requests();
    assertThat(redirected).extracting(RecordedRequest::path).containsExactly("/v1/chat/completions", DEPLOYMENT);
    assertThat(redirected).allSatisfy(r -> {
      assertThat(r.headers().keySet().stream().map(name -> name.toLowerCase(Locale.ROOT)))
          .as("%s", r.headers()).allMatch(ALLOWED_ON_THE_WIRE::contains);
      assertThat(r.headers().values().stream().flatMap(List::stream)).noneMatch(value -> value.contains("secret"));
      assertThat(r.header("content-type")).isEqualTo("application/json");
    });
    assertThat(statuses).as("elsewhere's answer; then elsewhere's as Azure, to a call without its key")
        .containsExactly(200, 401);
  }

  private int viaRestClient(String url) {
    return viaRestClient(restClients, url);
  }

  private static int viaRestClient(RestClient.Builder restClients, String url) {
    return restClients.build().post().uri(url)
        .headers(headers -> APP_KEYS.forEach(headers::set))
        .contentType(MediaType.APPLICATION_JSON).body(CHAT)
        .retrieve().onStatus(status -> true, (request, answer) -> { })
        .toEntity(String.class).getStatusCode().value();
  }

  private int viaWebClient(String url) {
    return webClients.build().post().uri(url)
        .headers(headers -> APP_KEYS.forEach(headers::set))
        .contentType(MediaType.APPLICATION_JSON).bodyValue(CHAT)
        .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value()))
        .block(Duration.ofSeconds(30));
  }
}
