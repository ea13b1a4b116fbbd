package io.tollgate.agent.okhttp.helpers;

import static io.tollgate.agent.HelperConfigs.config;
import static io.tollgate.agent.HelperConfigs.primaryFallingBackTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.gate.Gate;
import io.tollgate.llm.Headers;
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
 * A fallback keeps its own key through a client whose network interceptor strips credentials from
 * any request to another host than the call's (as the OpenAI Java SDK does), and the
 * key goes nowhere but to the fallback's origin. OkHttp 3.14, wired by hand as the agent does.
 */
class FallbackCredentialsTest {

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
    FallbackCredentials.addTo(builder);
    FallbackCredentials.addTo(builder);
    assertThat(builder.networkInterceptors()).hasSize(2).startsWith(first);
    assertThat(builder.networkInterceptors().get(1)).isInstanceOf(FallbackCredentials.class);

    OkHttpClient.Builder copy = builder.build().newBuilder();
    Interceptor added = chain -> chain.proceed(chain.request());
    copy.addNetworkInterceptor(added); // after ours, as an SDK adds its own to a copied builder
    FallbackCredentials.addTo(copy);
    assertThat(copy.networkInterceptors()).hasSize(3).startsWith(first, added);
    assertThat(copy.networkInterceptors().get(2)).isInstanceOf(FallbackCredentials.class);
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
    // what the OpenAI SDK did to a fallback before: the reason FallbackCredentials exists
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
        .addNetworkInterceptor(new FallbackCredentials())
        .build();
    Headers plan = Headers.builder().add("Authorization", "Bearer backup-key")
        .add("x-api-key", "backup-key").build();
    Request toBackup = FallbackCredentials.tag(chat(backup), plan);
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
    assertThat(FallbackCredentials.tag(chat(backup), Headers.builder().add("accept", "*/*").build())
        .tag(FallbackCredentials.Tag.class)).as("a plan without a credential: no tag").isNull();
  }

  private OkHttpClient client(boolean withFallbackCredentials) {
    gate = Gate.create(config(primaryFallingBackTo(primary.baseUrl(), backup.baseUrl())));
    OkHttpClient.Builder builder = new OkHttpClient.Builder()
        .addInterceptor(new TollgateInterceptor(gate))
        .addNetworkInterceptor(STRIPS_KEYS_OFF_THE_CALLS_HOST);
    if (withFallbackCredentials) {
      FallbackCredentials.addTo(builder);
    }
    return builder.build();
  }

  private static Request chat(MockLlmServer server) {
    return new Request.Builder().url(server.baseUrl() + "/v1/chat/completions")
        .header("Authorization", "Bearer app-key")
        .post(RequestBody.create(JSON_TYPE, CHAT)).build();
  }
}
