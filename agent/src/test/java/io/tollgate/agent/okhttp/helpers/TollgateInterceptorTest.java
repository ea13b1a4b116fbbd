package io.tollgate.agent.okhttp.helpers;

import static io.tollgate.agent.HelperConfigs.config;
import static io.tollgate.agent.HelperConfigs.primaryFallingBackTo;
import static io.tollgate.agent.HelperConfigs.primaryLimitedTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.agent.EnqueuedTenants;
import io.tollgate.agent.InstalledGate;
import io.tollgate.agent.InternalFailures;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Gate;
import io.tollgate.gate.Tenants;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Reservation;
import io.tollgate.limiter.Subject;
import io.tollgate.router.ProviderBreakers;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The interceptor wired by hand (no agent) into OkHttp 3.14, the oldest supported line, against
 * mock providers, through a gate of its own or the agent's ({@link InstalledGate}); the agent
 * wiring and the other OkHttp lines are covered by the forked-JVM tests.
 */
class TollgateInterceptorTest {

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();

  private static final MediaType JSON_TYPE = MediaType.parse("application/json");
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":100,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
  private static final ObjectMapper JSON = new ObjectMapper();

  private Gate gate;
  private ProviderBreakers breakers;

  @BeforeEach
  void reset() {
    primary.reset();
    backup.reset();
  }

  @AfterEach
  void close() {
    if (gate != null) {
      gate.close();
    }
    if (breakers != null) {
      breakers.close();
    }
  }

  @Test
  void isAddedOnceAndFirstEvenToABuilderCopiedFromAClient() {
    OkHttpClient.Builder builder = new OkHttpClient.Builder();
    Interceptor own = chain -> chain.proceed(chain.request());
    builder.addInterceptor(own);
    TollgateInterceptor.addTo(builder);
    TollgateInterceptor.addTo(builder);
    assertThat(builder.interceptors()).hasSize(2);
    assertThat(builder.interceptors().get(0)).isInstanceOf(TollgateInterceptor.class);

    OkHttpClient.Builder copy = builder.build().newBuilder();
    copy.interceptors().add(0, new TollgateInterceptor()); // as a second constructor's hook would
    TollgateInterceptor.addTo(copy);
    assertThat(copy.interceptors()).hasSize(2).endsWith(own);
  }

  /** Woven in before the builder's constructor returns, where nothing may be thrown into the app. */
  @Test
  void addingToWhatIsNoBuilderThrowsNothingAndIsCounted() {
    long before = InternalFailures.count("advice");

    TollgateInterceptor.addTo("not a builder");

    assertThat(InternalFailures.count("advice")).isEqualTo(before + 1);
  }

  @Test
  void answersALimitedCallWithTheProvidersOwn429ThroughOkHttpsApi() throws Exception {
    OkHttpClient client = client(primaryLimitedTo(primary.baseUrl(), "requests-per-minute: 1"));

    try (Response admitted = client.newCall(chat(primary)).execute()) {
      assertThat(admitted.code()).isEqualTo(200);
    }
    try (Response limited = client.newCall(chat(primary)).execute()) {
      assertThat(limited.code()).isEqualTo(429);
      assertThat(limited.message()).isEqualTo("Too Many Requests");
      assertThat(limited.header("Retry-After")).matches("\\d+");
      assertThat(limited.body().contentType().toString()).startsWith("application/json");
      assertThat(JSON.readTree(limited.body().string()).path("error").path("code").asText())
          .isEqualTo("rate_limit_exceeded");
    }
    assertThat(primary.requestCount()).isEqualTo(1);
  }

  @Test
  void givesTheAppTheProvidersRefusalIntactWhenTheFallbackIsUnreachable() throws Exception {
    // a privileged port nothing listens on: a freed ephemeral port could be taken meanwhile
    int closedPort = 1;
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(7)));
    OkHttpClient client = client(primaryFallingBackTo(primary.baseUrl(), "http://127.0.0.1:" + closedPort));

    try (Response response = client.newCall(chat(primary)).execute()) {
      assertThat(response.code()).isEqualTo(429);
      assertThat(response.header("Retry-After")).isEqualTo("7");
      assertThat(JSON.readTree(response.body().string()).path("error").path("code").asText())
          .isEqualTo("rate_limit_exceeded");
    }
  }

  @Test
  void neverSendsAOneShotBodyToAFallback() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(1)));
    OkHttpClient client = client(primaryFallingBackTo(primary.baseUrl(), backup.baseUrl()));
    RequestBody oneShot = new RequestBody() {
      @Override
      public MediaType contentType() {
        return JSON_TYPE;
      }

      @Override
      public void writeTo(BufferedSink sink) throws IOException {
        sink.writeUtf8(CHAT);
      }

      @Override
      public boolean isOneShot() {
        return true;
      }
    };
    Request request = new Request.Builder().url(primary.baseUrl() + "/v1/chat/completions")
        .header("Authorization", "Bearer app-key").post(oneShot).build();

    try (Response response = client.newCall(request).execute()) {
      assertThat(response.code()).isEqualTo(429);
    }
    assertThat(primary.requests()).singleElement()
        .satisfies(r -> assertThat(r.bodyText()).isEqualTo(CHAT));
    assertThat(backup.requestCount()).isZero();
  }

  @Test
  void settlesWhatTheStreamReallyUsedOnceTheAppHasReadIt() throws Exception {
    primary.usage(10, 20);
    OkHttpClient client = client(primaryLimitedTo(primary.baseUrl(), "tokens-per-day: 100000"));
    String stream = "{\"model\":\"gpt-4o\",\"max_tokens\":900,\"stream\":true,"
        + "\"stream_options\":{\"include_usage\":true},"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    Request request = new Request.Builder().url(primary.baseUrl() + "/v1/chat/completions")
        .post(RequestBody.create(JSON_TYPE, stream)).build();

    try (Response response = client.newCall(request).execute()) {
      assertThat(used()).as("reserved while streaming").isGreaterThan(900);
      assertThat(response.body().string()).endsWith("data: [DONE]\n\n");
    }
    assertThat(used()).as("settled (refill of ~1.2/s aside)").isBetween(30L - 5, 30L);
  }

  @Test
  void theTappedBodyKeepsTheProvidersMediaTypeAndLength() throws Exception {
    primary.usage(10, 20);
    OkHttpClient client = client(primaryLimitedTo(primary.baseUrl(), "tokens-per-day: 100000"));
    Request request = new Request.Builder().url(primary.baseUrl() + "/v1/chat/completions")
        .post(RequestBody.create(JSON_TYPE, CHAT)).build();

    try (Response response = client.newCall(request).execute()) {
      ResponseBody body = response.body();
      String announcedType = response.header("Content-Type");
      long announcedLength = Long.parseLong(response.header("Content-Length"));
      assertThat(body.getClass().getSimpleName()).isEqualTo("TappedResponseBody");
      assertThat(body.contentType()).isEqualTo(MediaType.get(announcedType));
      assertThat(body.contentLength()).isEqualTo(announcedLength);
      assertThat(body.bytes()).hasSize((int) announcedLength);
    }
    assertThat(used()).as("settled with the usage the body reported").isBetween(30L - 5, 30L);
  }

  @Test
  void letsTheCallProceedUnchangedWhenTollgateItselfFails() throws Exception {
    TollgateConfig config = config(primaryLimitedTo(primary.baseUrl(), "requests-per-minute: 1"));
    gate = Gate.builder(config).limiter(new BrokenLimiter()).build();
    OkHttpClient client = new OkHttpClient.Builder().addInterceptor(new TollgateInterceptor(gate)).build();
    long before = InternalFailures.count(TollgateInterceptor.WHERE);

    try (Response response = client.newCall(chat(primary)).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
    assertThat(InternalFailures.count(TollgateInterceptor.WHERE)).isEqualTo(before + 1);
    assertThat(primary.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer app-key");
      assertThat(r.bodyText()).isEqualTo(CHAT);
    });
  }

  @Test
  void anEnqueuedCallIsChargedToTheTenantBoundWhereItWasEnqueued() throws Exception {
    gate = Gate.create(config("""
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
          tenants:
            header: X-Tenant-Id
            limits:
              requests-per-minute: 2
        """.formatted(primary.baseUrl())));
    OkHttpClient client = agentsClient();
    List<Integer> statuses = new ArrayList<>();

    try (InstalledGate installed = InstalledGate.of(gate)) {
      try (Tenants.Scope acme = Tenants.bind("acme")) {
        for (int i = 0; i < 3; i++) {
          statuses.add(enqueued(client, chat(primary)).code());
        }
      }
      statuses.add(enqueued(client, chat(primary)).code()); // no tenant: the provider's only
    }

    assertThat(statuses).containsExactly(200, 200, 429, 200);
    assertThat(primary.requestCount()).isEqualTo(3);
    Limits tenantLimits = gate.config().tenants().orElseThrow().limitsFor("acme").toLimits();
    Decision acme = gate.limiter().reserve(Subject.of("tenant", "acme"), tenantLimits, 0, 1);
    acme.reservation().ifPresent(gate.limiter()::release);
    assertThat(acme.remainingRequests()).as("the tenant's 2 requests a minute, both spent").isZero();
  }

  @Test
  void anEnqueuedCallIsChargedToTheUserBoundWithItsTenantWhereItWasEnqueued() throws Exception {
    gate = Gate.create(config("""
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
          tenants:
            header: X-Tenant-Id
            limits:
              requests-per-minute: 10
            user-header: X-User-Id
            user-limits:
              requests-per-minute: 1
        """.formatted(primary.baseUrl())));
    OkHttpClient client = agentsClient();
    List<Integer> statuses = new ArrayList<>();
    String refusal;

    try (InstalledGate installed = InstalledGate.of(gate)) {
      try (Tenants.Scope bob = Tenants.bind("acme", "bob")) {
        statuses.add(enqueued(client, chat(primary)).code());
        Response refused = enqueued(client, chat(primary));
        statuses.add(refused.code());
        refusal = refused.body().string();
      }
      try (Tenants.Scope alice = Tenants.bind("acme", "alice")) {
        statuses.add(enqueued(client, chat(primary)).code());
      }
    }

    assertThat(statuses).containsExactly(200, 429, 200);
    assertThat(refusal).contains("on the user's requests per min (RPM): Limit 1, Remaining 0.");
    assertThat(primary.requestCount()).isEqualTo(2);
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS) // a slept jitter or limit wait fails it
  void anEnqueuedCallNeitherWaitsForRoomNorJittersBeforeAFallback() throws Exception {
    TollgateConfig config = config("""
        tollgate:
          on-limit: wait
          max-wait: 2m
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-minute: 1
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: backup-key
              limits:
                requests-per-minute: 1
        """.formatted(primary.baseUrl(), backup.baseUrl()));
    // The seed draws a switch-over jitter of minutes: a dispatcher thread that slept it would
    // still be asleep when the test times out; so would one waiting a minute for room.
    assertThat(new Random(3).nextLong(Duration.ofHours(1).toMillis() + 1))
        .isGreaterThan(Duration.ofMinutes(5).toMillis());
    breakers = ProviderBreakers.builder(config.breaker())
        .switchOverJitter(Duration.ofHours(1)).random(new Random(3)).build();
    gate = Gate.builder(config).breakers(breakers).build();
    primary.script().next(1, Fault.rateLimited(Duration.ZERO));
    OkHttpClient client = agentsClient();

    try (InstalledGate installed = InstalledGate.of(gate)) {
      Response switched = enqueued(client, chat(primary)); // primary refuses upstream: backup
      Response admitted = enqueued(client, chat(primary));
      Response limited = enqueued(client, chat(primary)); // no room left anywhere for a minute

      assertThat(switched.code()).isEqualTo(200);
      assertThat(switched.request().url().port()).isEqualTo(backup.port());
      assertThat(admitted.code()).isEqualTo(200);
      assertThat(admitted.request().url().port()).isEqualTo(primary.port());
      assertThat(limited.code()).isEqualTo(429);
      assertThat(limited.header("Retry-After")).matches("\\d+");
    }
    assertThat(primary.requestCount()).isEqualTo(2);
    assertThat(backup.requestCount()).isEqualTo(1);
  }

  /** A client as the agent builds it: the interceptor working through the agent's gate. */
  private static OkHttpClient agentsClient() {
    return new OkHttpClient.Builder().addInterceptor(new TollgateInterceptor()).build();
  }

  /** {@code enqueue}, as the agent's hook sees it, with the answer read whole on the dispatcher. */
  private static Response enqueued(OkHttpClient client, Request request) throws Exception {
    Call call = client.newCall(request);
    EnqueuedTenants.remember(call); // what the agent's hook on enqueue does
    CompletableFuture<Response> answer = new CompletableFuture<>();
    call.enqueue(new Callback() {
      @Override
      public void onFailure(Call failed, IOException e) {
        answer.completeExceptionally(e);
      }

      @Override
      public void onResponse(Call answered, Response response) throws IOException {
        try (Response r = response) {
          byte[] body = r.body().bytes();
          answer.complete(r.newBuilder().body(ResponseBody.create(r.body().contentType(), body)).build());
        }
      }
    });
    return answer.get(60, TimeUnit.SECONDS);
  }

  private long used() {
    Limits limits = gate.config().provider("primary").orElseThrow().limits().toLimits();
    Decision peek = gate.limiter().reserve(Subject.of("provider", "primary"), limits, 0, 1);
    peek.reservation().ifPresent(gate.limiter()::release);
    return 100_000 - peek.remainingTokens() - 1;
  }

  private OkHttpClient client(String yaml) {
    gate = Gate.create(config(yaml));
    return new OkHttpClient.Builder().addInterceptor(new TollgateInterceptor(gate)).build();
  }

  private static Request chat(MockLlmServer server) {
    return new Request.Builder().url(server.baseUrl() + "/v1/chat/completions")
        .header("Authorization", "Bearer app-key")
        .post(RequestBody.create(JSON_TYPE, CHAT)).build();
  }

  /** A limiter whose every decision fails: a bug of ours, as far as the app is concerned. */
  private static final class BrokenLimiter implements RateLimiter {
    private final RateLimiter unused = RateLimiter.inMemory();

    @Override
    public Decision reserve(Subject subject, Limits limits, long requests, long tokens) {
      throw new IllegalStateException("broken on purpose");
    }

    @Override
    public boolean settle(Reservation reservation, long actualTokens) {
      return unused.settle(reservation, actualTokens);
    }

    @Override
    public boolean release(Reservation reservation) {
      return unused.release(reservation);
    }
  }
}
