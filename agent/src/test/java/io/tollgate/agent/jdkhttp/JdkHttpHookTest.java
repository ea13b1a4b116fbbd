package io.tollgate.agent.jdkhttp;

import static io.tollgate.agent.HelperConfigs.config;
import static io.tollgate.agent.HelperConfigs.primaryFallingBackTo;
import static io.tollgate.agent.HelperConfigs.primaryLimitedTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.agent.InternalFailures;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Gate;
import io.tollgate.gate.Tenants;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Reservation;
import io.tollgate.limiter.Subject;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hook wired by hand (no agent): {@link #send} and {@link #sendAsync} do what the woven hooks do
 * around a real JDK {@code HttpClient}, against mock providers. The agent wiring (the weaving, the
 * constants, retransformation) is covered by the forked-JVM tests.
 */
class JdkHttpHookTest {

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();

  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":100,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();
  private Gate gate;
  private JdkHttpHook hook;

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
  }

  @Test
  void answersALimitedCallWithTheProvidersOwn429ThroughTheAppsOwnHandler() throws Throwable {
    gate(primaryLimitedTo(primary.baseUrl(), "requests-per-minute: 1"));

    assertThat(send(chat(primary), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    HttpRequest request = chat(primary);
    HttpResponse<String> limited = send(request, HttpResponse.BodyHandlers.ofString());
    HttpResponse<InputStream> limitedAsync =
        sendAsync(chat(primary), HttpResponse.BodyHandlers.ofInputStream()).get(10, TimeUnit.SECONDS);

    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.request()).isSameAs(request);
    assertThat(limited.uri()).isEqualTo(request.uri());
    assertThat(limited.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    assertThat(limited.headers().firstValue("retry-after")).hasValueSatisfying(v -> assertThat(v).matches("\\d+"));
    assertThat(limited.headers().firstValue("content-type")).hasValueSatisfying(v ->
        assertThat(v).startsWith("application/json"));
    assertThat(JSON.readTree(limited.body()).path("error").path("code").asText())
        .isEqualTo("rate_limit_exceeded");
    assertThat(limitedAsync.statusCode()).isEqualTo(429);
    try (InputStream body = limitedAsync.body()) {
      assertThat(JSON.readTree(body).path("error").path("type").asText()).isEqualTo("requests");
    }
    assertThat(primary.requestCount()).isEqualTo(1);
  }

  @Test
  void fallsBackWithTheFallbacksOwnKeyAndNeverShowsItToTheApp() throws Throwable {
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(3)));
    gate("""
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: backup-key
              model-map:
                gpt-4o: gpt-4o-mini
        """.formatted(primary.baseUrl(), backup.baseUrl()));
    HttpRequest request = chat(primary);

    HttpResponse<byte[]> response =
        sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).get(10, TimeUnit.SECONDS);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(response.body()).path("model").asText()).isEqualTo("gpt-4o-mini");
    assertThat(response.request()).as("the app's own request, not the backup's copy").isSameAs(request);
    assertThat(response.uri()).isEqualTo(backup.uri("/v1/chat/completions"));
    assertThat(primary.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
    assertThat(backup.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer backup-key");
      assertThat(r.json().path("model").asText()).isEqualTo("gpt-4o-mini");
    });
  }

  @Test
  void givesTheAppTheProvidersRefusalIntactWhenTheFallbackIsUnreachable() throws Throwable {
    // a privileged port nothing listens on: a freed ephemeral port could be taken meanwhile
    int closedPort = 1;
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(7)));
    gate(primaryFallingBackTo(primary.baseUrl(), "http://127.0.0.1:" + closedPort));

    HttpResponse<String> response = send(chat(primary), HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(429);
    assertThat(response.headers().firstValue("retry-after")).hasValue("7");
    assertThat(JSON.readTree(response.body()).path("error").path("code").asText())
        .isEqualTo("rate_limit_exceeded");
  }

  @Test
  void settlesWhatTheStreamReallyUsedOnceTheAppHasReadIt() throws Throwable {
    primary.usage(10, 20);
    gate(primaryLimitedTo(primary.baseUrl(), "tokens-per-day: 10000"));
    String stream = "{\"model\":\"gpt-4o\",\"max_tokens\":900,\"stream\":true,"
        + "\"stream_options\":{\"include_usage\":true},"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    HttpResponse<InputStream> response = send(post(primary, stream),
        HttpResponse.BodyHandlers.ofInputStream());
    String text;
    try (InputStream body = response.body()) {
      text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(text).contains("\"usage\"").endsWith("data: [DONE]\n\n");
    assertThat(used()).as("settled (refill of ~0.12/s aside)").isBetween(30L - 5, 30L);

    HttpResponse<Stream<String>> lines = sendAsync(post(primary, stream),
        HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
    assertThat(lines.body().collect(Collectors.joining("\n"))).endsWith("data: [DONE]\n");
    assertThat(used()).as("two streams settled").isBetween(60L - 5, 60L);
  }

  @Test
  void givesTheReservationBackAndSendsNothingMoreWhenTheAppCancels() throws Throwable {
    primary.script().next(1, Fault.latency(Duration.ofSeconds(5)));
    gate(primaryLimitedTo(primary.baseUrl(), "requests-per-minute: 1"));
    long failuresBefore = InternalFailures.count(JdkHttpHook.WHERE);

    CompletableFuture<HttpResponse<String>> slow = sendAsync(chat(primary), HttpResponse.BodyHandlers.ofString());
    primary.awaitRequests(1, Duration.ofSeconds(5));
    slow.cancel(true);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (remainingRequests() == 0 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }

    assertThat(remainingRequests()).as("the cancelled call's request given back").isEqualTo(1);
    assertThat(send(chat(primary), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    assertThat(primary.requestCount()).as("the cancelled call was not sent again").isEqualTo(2);
    assertThat(InternalFailures.count(JdkHttpHook.WHERE)).isEqualTo(failuresBefore);
  }

  @Test
  void letsTheCallProceedUnchangedWhenTollgateItselfFails() throws Throwable {
    TollgateConfig config = config(primaryLimitedTo(primary.baseUrl(), "requests-per-minute: 1"));
    gate = Gate.builder(config).limiter(new BrokenLimiter()).build();
    hook = new JdkHttpHook(gate);
    long before = InternalFailures.count(JdkHttpHook.WHERE);

    HttpResponse<String> response = send(chat(primary), HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(InternalFailures.count(JdkHttpHook.WHERE)).isEqualTo(before + 1);
    assertThat(primary.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer app-key");
      assertThat(r.bodyText()).isEqualTo(CHAT);
    });
  }

  @Test
  void leavesOtherHostsAndItsOwnAttemptsAlone() {
    gate("""
        tollgate:
          providers:
            primary:
              base-url: %s/v1
              api: openai
        """.formatted(primary.baseUrl()));
    HttpResponse.BodyHandler<String> handler = HttpResponse.BodyHandlers.ofString();

    assertThat(hook.onSend(client, HttpRequest.newBuilder(URI.create("http://localhost:1/v1/x")).build(), handler))
        .as("another host").isNull();
    assertThat(hook.onSend(client, HttpRequest.newBuilder(backup.uri("/v1/chat/completions")).build(), handler))
        .as("the provider's host, another port").isNull();
    assertThat(hook.onSendAsync(client, HttpRequest.newBuilder(primary.uri("/other")).build(), handler, null))
        .as("the provider's host and port, outside its base path").isNull();
    assertThat(JdkHttpHook.ownSend(() -> hook.onSendAsync(client, chat(primary), handler, null)))
        .as("an attempt of Tollgate's own").isNull();
    assertThat(primary.requestCount()).isZero();
  }

  @Test
  void chargesTheTenantBoundWhereSendAsyncWasCalledWhenTheBodyIsPublishedLater() throws Throwable {
    gate("""
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
          tenants:
            header: X-Tenant-Id
            limits:
              requests-per-minute: 1
        """.formatted(primary.baseUrl()));
    List<Integer> statuses = new ArrayList<>();

    try (Tenants.Scope acme = Tenants.bind("acme")) {
      for (int i = 0; i < 2; i++) {
        HttpRequest request = HttpRequest.newBuilder(primary.uri("/v1/chat/completions"))
            .header("Authorization", "Bearer app-key")
            .header("Content-Type", "application/json")
            .POST(publishedLater(CHAT)).build();
        statuses.add(sendAsync(request, HttpResponse.BodyHandlers.ofString())
            .get(10, TimeUnit.SECONDS).statusCode());
      }
    }

    assertThat(statuses).containsExactly(200, 429);
    assertThat(primary.requests()).singleElement()
        .satisfies(r -> assertThat(r.bodyText()).isEqualTo(CHAT));
  }

  /** A body publisher that publishes on a thread of its own, after the subscription. */
  private static HttpRequest.BodyPublisher publishedLater(String json) {
    HttpRequest.BodyPublisher bytes = HttpRequest.BodyPublishers.ofString(json);
    return new HttpRequest.BodyPublisher() {
      @Override
      public long contentLength() {
        return bytes.contentLength();
      }

      @Override
      public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS)
            .execute(() -> bytes.subscribe(subscriber));
      }
    };
  }

  /** What the hook woven into {@code send} does. */
  @SuppressWarnings("unchecked")
  private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws Throwable {
    Object answer = hook.onSend(client, request, handler);
    if (answer == null) {
      return client.send(request, handler);
    }
    if (answer instanceof Throwable thrown) {
      throw thrown;
    }
    return (HttpResponse<T>) answer;
  }

  /** What the hook woven into {@code sendAsync} does. */
  @SuppressWarnings("unchecked")
  private <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
      HttpResponse.BodyHandler<T> handler) {
    Object answer = hook.onSendAsync(client, request, handler, null);
    return answer == null ? client.sendAsync(request, handler)
        : (CompletableFuture<HttpResponse<T>>) answer;
  }

  private long remainingRequests() {
    Limits limits = gate.config().provider("primary").orElseThrow().limits().toLimits();
    Decision peek = gate.limiter().reserve(Subject.of("provider", "primary"), limits, 0, 1);
    peek.reservation().ifPresent(gate.limiter()::release);
    return peek.remainingRequests();
  }

  private long used() {
    Limits limits = gate.config().provider("primary").orElseThrow().limits().toLimits();
    Decision peek = gate.limiter().reserve(Subject.of("provider", "primary"), limits, 0, 1);
    peek.reservation().ifPresent(gate.limiter()::release);
    return 10_000 - peek.remainingTokens() - 1;
  }

  private void gate(String yaml) {
    gate = Gate.create(config(yaml));
    hook = new JdkHttpHook(gate);
  }

  private static HttpRequest chat(MockLlmServer server) {
    return post(server, CHAT);
  }

  private static HttpRequest post(MockLlmServer server, String json) {
    return HttpRequest.newBuilder(server.uri("/v1/chat/completions"))
        .header("Authorization", "Bearer app-key")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)).build();
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
