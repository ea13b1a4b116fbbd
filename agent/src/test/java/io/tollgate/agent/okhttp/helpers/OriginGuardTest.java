package io.tollgate.agent.okhttp.helpers;

import static io.tollgate.agent.HelperConfigs.config;
import static io.tollgate.agent.HelperConfigs.primaryFallingBackTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.gate.Gate;
import io.tollgate.llm.Headers;
import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.time.Duration;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * No credential follows a redirect off the origin Tollgate sent a provider call to, while a
 * fallback keeps its own key through a client whose network interceptor strips credentials from
 * any request to another host than the call's (as the OpenAI Java SDK does). OkHttp 3.14, wired by
 * hand as the agent does.
 */
class OriginGuardTest {

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();
  @AutoClose static final MockLlmServer elsewhere = MockLlmServer.start();

  private static final MediaType JSON_TYPE = MediaType.parse("application/json");
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":100,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

  /** The OpenAI SDK's guard: no key on a request whose origin is not the call's. */
  private static final Interceptor STRIPS_KEYS_OFF_THE_CALLS_HOST = chain -> {
    HttpUrl called = chain.call().request().url();
    HttpUrl url = chain.request().url();
    if (called.host().equals(url.host()) && called.port() == url.port()) {
      return chain.proceed(chain.request());
    }
    return chain.proceed(chain.request().newBuilder()
        .removeHeader("Authorization").removeHeader("api-key").removeHeader("x-api-key").build());
  };

  private Gate gate;

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
  void isAddedOnceAndLastEvenAfterTheAppsOwnAndToABuilderCopiedFromAClient() {
    OkHttpClient.Builder builder = new OkHttpClient.Builder();
    Interceptor first = chain -> chain.proceed(chain.request());
    builder.addNetworkInterceptor(first);
    OriginGuard.addTo(builder);
    OriginGuard.addTo(builder);
    assertThat(builder.networkInterceptors()).hasSize(2).startsWith(first);
    assertThat(builder.networkInterceptors().get(1)).isInstanceOf(OriginGuard.class);

    OkHttpClient.Builder copy = builder.build().newBuilder();
    Interceptor added = chain -> chain.proceed(chain.request());
    copy.addNetworkInterceptor(added); // after ours, as an SDK adds its own to a copied builder
    OriginGuard.addTo(copy);
    assertThat(copy.networkInterceptors()).hasSize(3).startsWith(first, added);
    assertThat(copy.networkInterceptors().get(2)).isInstanceOf(OriginGuard.class);
  }

  @Test
  void theFallbackGetsItsOwnKeyThroughAClientThatStripsKeysOffOtherHosts() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(30)));
    OkHttpClient client = client(true);

    try (Response response = client.newCall(chat(primary)).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
    assertThat(primary.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
    assertThat(backup.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("authorization")).isEqualTo("Bearer backup-key"));
  }

  @Test
  void withoutItTheStrippingClientSendsTheFallbackNoKeyAtAll() throws Exception {
    // what the OpenAI SDK did to a fallback before: the reason OriginGuard puts keys back
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(30)));
    OkHttpClient client = client(false);

    try (Response response = client.newCall(chat(primary)).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
    assertThat(backup.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("authorization")).isNull());
  }

  @Test
  void putsBackOnlyWhatWasRemovedAndOnlyOnARequestToTheTaggedOrigin() throws Exception {
    OkHttpClient client = new OkHttpClient.Builder()
        .addNetworkInterceptor(STRIPS_KEYS_OFF_THE_CALLS_HOST)
        .addNetworkInterceptor(new OriginGuard())
        .build();
    Headers plan = Headers.builder().add("Authorization", "Bearer backup-key")
        .add("x-api-key", "backup-key").build();
    Request toBackup = OriginGuard.retag(OriginGuard.tag(chat(primary), CrossOriginHeaders.ofDefaults())
        .newBuilder().url(backup.baseUrl() + "/v1/chat/completions").build(), plan);
    // a call to the primary whose request, tagged for the backup, goes to a third host instead
    // (a redirect keeps the tag): the key must not follow it
    Request redirected = toBackup.newBuilder().url(elsewhere.baseUrl() + "/v1/chat/completions").build();

    Interceptor sendsTheTaggedRequestsInstead = new Interceptor() {
      private int calls;

      @Override
      public Response intercept(Chain chain) throws java.io.IOException {
        return chain.proceed(calls++ == 0 ? toBackup : redirected);
      }
    };
    OkHttpClient rerouting = client.newBuilder().addInterceptor(sendsTheTaggedRequestsInstead).build();
    try (Response response = rerouting.newCall(chat(primary)).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
    try (Response response = rerouting.newCall(chat(primary)).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
    assertThat(backup.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer backup-key");
      assertThat(r.header("x-api-key")).isEqualTo("backup-key");
    });
    assertThat(elsewhere.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isNull();
      assertThat(r.header("x-api-key")).isNull();
    });
  }

  @Test
  void aProvidersRedirectToAnotherOriginCarriesOnlySafeHeaders() throws Exception {
    // OkHttp 3 follows no 307 of a POST (4 and 5 do): a 303, which it follows with a GET
    primary.script().next(1, Fault.redirect(303, elsewhere.baseUrl() + "/v1/models"));
    OkHttpClient client = guarded(primaryFallingBackTo(primary.baseUrl(), backup.baseUrl()));

    try (Response response = client.newCall(chat(primary).newBuilder()
        .header("api-key", "az-app-key").header("x-api-key", "ant-app-key")
        .header("helicone-auth", "Bearer helicone-key").header("x-my-gateway-key", "gateway-key")
        .header("OpenAI-Beta", "assistants=v2").build()).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
    assertThat(primary.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer app-key");
      assertThat(r.header("api-key")).isEqualTo("az-app-key");
    });
    assertThat(elsewhere.requests()).singleElement().satisfies(r -> assertThat(lowerCase(r.headers().keySet()))
        .containsExactlyInAnyOrder("host", "connection", "accept-encoding", "user-agent", "openai-beta"));
  }

  @Test
  void aFallbacksRedirectKeepsItsKeyOnItsOriginOnly() throws Exception {
    primary.script().always(Fault.rateLimited(Duration.ofSeconds(30)));
    backup.script().next(1, Fault.redirect(303, backup.baseUrl() + "/v1/models"))
        .next(1, Fault.redirect(303, elsewhere.baseUrl() + "/v1/models"));
    OkHttpClient client = guarded("""
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

    for (int call = 0; call < 2; call++) {
      try (Response response = client.newCall(chat(primary)).execute()) {
        assertThat(response.code()).isEqualTo(200);
      }
    }
    assertThat(backup.requests()).extracting(r -> r.method() + " " + r.path())
        .containsExactly("POST /openai/deployments/gpt-4o/chat/completions", "GET /v1/models",
            "POST /openai/deployments/gpt-4o/chat/completions");
    assertThat(backup.requests()).allSatisfy(r -> assertThat(r.header("api-key")).isEqualTo("backup-key"));
    assertThat(elsewhere.requests()).singleElement().satisfies(r -> {
      assertThat(r.path()).isEqualTo("/v1/models");
      assertThat(r.header("api-key")).isNull();
      assertThat(r.header("authorization")).isNull();
      assertThat(r.header("user-agent")).startsWith("okhttp/");
    });
  }

  /** A client as the agent wires it, without any interceptor of the app's. */
  private OkHttpClient guarded(String yaml) {
    gate = Gate.create(config(yaml));
    OkHttpClient.Builder builder = new OkHttpClient.Builder().addInterceptor(new TollgateInterceptor(gate));
    OriginGuard.addTo(builder);
    return builder.build();
  }

  private static java.util.List<String> lowerCase(java.util.Collection<String> names) {
    return names.stream().map(name -> name.toLowerCase(java.util.Locale.ROOT)).toList();
  }

  private OkHttpClient client(boolean withOriginGuard) {
    gate = Gate.create(config(primaryFallingBackTo(primary.baseUrl(), backup.baseUrl())));
    OkHttpClient.Builder builder = new OkHttpClient.Builder()
        .addInterceptor(new TollgateInterceptor(gate))
        .addNetworkInterceptor(STRIPS_KEYS_OFF_THE_CALLS_HOST);
    if (withOriginGuard) {
      OriginGuard.addTo(builder);
    }
    return builder.build();
  }

  private static Request chat(MockLlmServer server) {
    return new Request.Builder().url(server.baseUrl() + "/v1/chat/completions")
        .header("Authorization", "Bearer app-key")
        .post(RequestBody.create(JSON_TYPE, CHAT)).build();
  }
}
