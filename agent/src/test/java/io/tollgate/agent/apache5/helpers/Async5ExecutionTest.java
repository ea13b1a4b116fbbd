package io.tollgate.agent.apache5.helpers;

import static io.tollgate.agent.HelperConfigs.config;
import static io.tollgate.agent.HelperConfigs.primaryFallingBackTo;
import static io.tollgate.agent.HelperConfigs.primaryLimitedTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.agent.InternalFailures;
import io.tollgate.agent.it.app.ChunkedJsonProducer;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Gate;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.ForwardingRateLimiter;
import io.tollgate.limiter.JointDecision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Reservation;
import io.tollgate.limiter.Subject;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestProducer;
import org.apache.hc.client5.http.async.methods.SimpleResponseConsumer;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http.nio.entity.StringAsyncEntityProducer;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The async HttpClient 5 helpers wired by hand (no agent: {@code run} called where the
 * woven hook would call it) on HttpClient 5.1, against mock providers; the agent wiring and the newest
 * release are covered by the forked-JVM tests.
 */
class Async5ExecutionTest {

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();
  /** HttpClient 5 re-sends a 429 itself by default; these tests look at Tollgate alone. */
  @AutoClose static final CloseableHttpAsyncClient client = started();

  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":100,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
  private static final ObjectMapper JSON = new ObjectMapper();
  /** A port nothing listens on: refused at once, unlike a freed port another test may take. */
  private static final String NOTHING_LISTENS = "http://127.0.0.1:1";

  private Gate gate;

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
  void completesTheAppsFutureAndCallbackWithTheProvidersOwn429MadeByItsConsumer() throws Exception {
    gate(primaryLimitedTo(primary.baseUrl(), "requests-per-minute: 1"));

    assertThat(execute(chat(primary)).response().getCode()).isEqualTo(200);
    Answer limited = execute(chat(primary));

    SimpleHttpResponse response = limited.response();
    assertThat(limited.callback().get(5, TimeUnit.SECONDS)).as("the app's callback").isSameAs(response);
    assertThat(response.getCode()).isEqualTo(429);
    assertThat(response.getReasonPhrase()).isEqualTo("Too Many Requests");
    assertThat(response.getFirstHeader("Retry-After").getValue()).matches("\\d+");
    assertThat(response.getContentType().getMimeType()).isEqualTo("application/json");
    assertThat(JSON.readTree(response.getBodyText()).path("error").path("code").asText())
        .isEqualTo("rate_limit_exceeded");
    assertThat(primary.requestCount()).isEqualTo(1);
  }

  @Test
  void givesTheAppTheProvidersRefusalIntactWhenTheFallbackIsUnreachable() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(7)));
    gate(primaryFallingBackTo(primary.baseUrl(), NOTHING_LISTENS));

    SimpleHttpResponse response = execute(chat(primary)).response();

    assertThat(response.getCode()).isEqualTo(429);
    assertThat(response.getFirstHeader("Retry-After").getValue()).isEqualTo("7");
    assertThat(JSON.readTree(response.getBodyText()).path("error").path("code").asText())
        .as("the refusal's body, held while the fallback was tried").isEqualTo("rate_limit_exceeded");
  }

  @Test
  void sendsTheFallbackItsOwnKeyAndTheAppsBodyAndNeverTheAppsKey() throws Exception {
    primary.script().next(1, Fault.status(500));
    gate(primaryFallingBackTo(primary.baseUrl(), backup.baseUrl()));

    SimpleHttpResponse response = execute(chat(primary)).response();

    assertThat(response.getCode()).isEqualTo(200);
    assertThat(JSON.readTree(response.getBodyText()).path("object").asText()).isEqualTo("chat.completion");
    assertThat(primary.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
    assertThat(backup.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer backup-key");
      assertThat(r.bodyText()).isEqualTo(CHAT);
    });
  }

  @Test
  void reservesAndReleasesOnTollgatesThreadsNeverOnTheAppsOrTheClientsIoThreads() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ZERO));
    ThreadRecordingLimiter limiter = new ThreadRecordingLimiter();
    gate = Gate.builder(config("""
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-minute: 5
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: backup-key
              limits:
                requests-per-minute: 5
        """.formatted(primary.baseUrl(), backup.baseUrl()))).limiter(limiter).build();

    SimpleHttpResponse response = execute(chat(primary)).response();

    assertThat(response.getCode()).isEqualTo(200);
    assertThat(primary.requestCount()).isEqualTo(1);
    assertThat(backup.requestCount()).isEqualTo(1);
    assertThat(limiter.reserved).as("the primary's, then, after its 429 reached an I/O thread, "
        + "the backup's").hasSize(2).allSatisfy(thread -> assertThat(thread).startsWith("tollgate-async-"));
    assertThat(limiter.released).as("the primary's, after its 429")
        .singleElement().asString().startsWith("tollgate-async-");
  }

  @Test
  void settlesWhatTheStreamReallyUsedOnceTheConsumerHasTakenIt() throws Exception {
    primary.usage(10, 20);
    gate(primaryLimitedTo(primary.baseUrl(), "tokens-per-day: 100000"));
    String stream = "{\"model\":\"gpt-4o\",\"max_tokens\":900,\"stream\":true,"
        + "\"stream_options\":{\"include_usage\":true},"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    SimpleHttpRequest request = SimpleHttpRequest.create("POST", primary.baseUrl() + "/v1/chat/completions");
    request.setBody(stream, ContentType.APPLICATION_JSON);

    assertThat(execute(request).response().getBodyText()).endsWith("data: [DONE]\n\n");
    assertThat(used()).as("settled (refill of ~1.2/s aside)").isBetween(30L - 5, 30L);
  }

  @Test
  void letsTheCallProceedUnchangedWhenTollgateItselfFails() throws Exception {
    TollgateConfig config = config(primaryLimitedTo(primary.baseUrl(), "requests-per-minute: 1"));
    gate = Gate.builder(config).limiter(new BrokenLimiter()).build();
    long before = InternalFailures.count(Async5Execution.WHERE);

    assertThat(execute(chat(primary)).response().getCode()).isEqualTo(200);
    assertThat(InternalFailures.count(Async5Execution.WHERE)).isEqualTo(before + 1);
    assertThat(primary.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer app-key");
      assertThat(r.bodyText()).isEqualTo(CHAT);
    });
  }

  @Test
  void limitsAStreamedBodyAndSendsItOnceAsTheAppProducesItNeverToAFallback() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ZERO));
    gate("""
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-minute: 2
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: backup-key
        """.formatted(primary.baseUrl(), backup.baseUrl()));
    List<ChunkedJsonProducer> bodies = new ArrayList<>();
    List<Integer> statuses = new ArrayList<>();

    for (int i = 0; i < 4; i++) {
      ChunkedJsonProducer body = new ChunkedJsonProducer(CHAT);
      bodies.add(body);
      statuses.add(execute(streamed(primary, body), primary.uri("/v1/chat/completions"))
          .response().getCode());
    }

    assertThat(statuses).as("refused upstream (no fallback for a stream), admitted twice, limited")
        .containsExactly(429, 200, 200, 429);
    assertThat(primary.requests()).hasSize(3).allSatisfy(r -> {
      assertThat(r.bodyText()).isEqualTo(CHAT);
      assertThat(r.header("transfer-encoding")).isEqualTo("chunked");
      assertThat(r.header("authorization")).isEqualTo("Bearer app-key");
    });
    assertThat(backup.requestCount()).isZero();
    assertThat(bodies.get(3).produced()).as("the limited call's body is never produced").isZero();
    assertThat(bodies.get(3).released()).as("but its resources are released").isEqualTo(1);
    assertThat(bodies.subList(0, 3)).allSatisfy(body ->
        assertThat(body.produced()).as("produced by the client, piece by piece").isEqualTo(3));
  }

  @Test
  void reservesAStreamedBodysPromptByTheLengthItDeclares() throws Exception {
    long bytes = CHAT.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    long prompt = (bytes + 3) / 4;
    // room for the default output estimate (1,024) and one token less than the declared prompt
    gate(primaryLimitedTo(primary.baseUrl(), "tokens-per-minute: " + (1024 + prompt - 1)));
    ChunkedJsonProducer declared = ChunkedJsonProducer.declaringItsLength(CHAT);
    ChunkedJsonProducer chunked = new ChunkedJsonProducer(CHAT);

    Answer refused = execute(streamed(primary, declared), primary.uri("/v1/chat/completions"));
    Answer admitted = execute(streamed(primary, chunked), primary.uri("/v1/chat/completions"));

    assertThat(refused.response().getCode()).as(prompt + " + 1,024 tokens never fit").isEqualTo(429);
    assertThat(JSON.readTree(refused.response().getBodyText()).at("/error/type").asText())
        .isEqualTo("tokens");
    assertThat(declared.produced()).isZero();
    assertThat(admitted.response().getCode()).as("chunked: the output estimate alone").isEqualTo(200);
    assertThat(primary.requests()).singleElement().satisfies(r -> {
      assertThat(r.bodyText()).isEqualTo(CHAT);
      assertThat(r.header("transfer-encoding")).isEqualTo("chunked");
    });
  }

  @Test
  void readsOnlyRepeatableRequestsAndHandsTheProducerBackAsItWas() throws Exception {
    ChunkedJsonProducer chunks = new ChunkedJsonProducer(CHAT);
    AsyncRequestProducer streamed = new BasicRequestProducer(
        new BasicHttpRequest("POST", URI.create(primary.baseUrl() + "/v1/chat/completions")),
        chunks);
    RequestCapture head = RequestCapture.head(streamed, null);
    assertThat(head.request().getMethod()).isEqualTo("POST");
    assertThat(head.body(streamed, 1 << 20)).as("a streamed body is never read").isNull();
    assertThat(chunks.produced()).isZero();
    assertThat(head.sendable(streamed)).isInstanceOf(StreamedRequestProducer.class);

    AsyncRequestProducer repeatable = new BasicRequestProducer(
        new BasicHttpRequest("POST", URI.create(primary.baseUrl() + "/v1/chat/completions")),
        new StringAsyncEntityProducer(CHAT, ContentType.APPLICATION_JSON));
    RequestCapture capture = RequestCapture.head(repeatable, null);
    assertThat(new String(capture.body(repeatable, 1 << 20), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(CHAT);
    assertThat(new String(RequestCapture.head(repeatable, null).body(repeatable, 1 << 20),
        java.nio.charset.StandardCharsets.UTF_8)).as("reset: read again whole").isEqualTo(CHAT);
  }

  @Test
  void readsNoMoreOfARepeatableBodyThanTheBoundAndSendsTheRestFromWhereItStopped() throws Exception {
    AsyncRequestProducer repeatable = new BasicRequestProducer(
        new BasicHttpRequest("POST", URI.create(primary.baseUrl() + "/v1/chat/completions")),
        new StringAsyncEntityProducer(CHAT, ContentType.APPLICATION_JSON));
    RequestCapture capture = RequestCapture.head(repeatable, null);

    assertThat(capture.body(repeatable, 16)).as("longer than the bound: not read whole").isNull();
    assertThat(new String(capture.held(), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(CHAT.substring(0, 17));
    assertThat(capture.sendable(repeatable)).isInstanceOf(StreamedRequestProducer.class);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    boolean[] ended = new boolean[1];
    org.apache.hc.core5.http.nio.DataStreamChannel channel = new org.apache.hc.core5.http.nio.DataStreamChannel() {
      @Override
      public void requestOutput() {}

      @Override
      public int write(java.nio.ByteBuffer src) {
        int n = Math.min(src.remaining(), 5); // a client taking a little at a time
        byte[] chunk = new byte[n];
        src.get(chunk);
        out.write(chunk, 0, n);
        return n;
      }

      @Override
      public void endStream() {
        ended[0] = true;
      }

      @Override
      public void endStream(List<? extends org.apache.hc.core5.http.Header> trailers) {
        ended[0] = true;
      }
    };
    AsyncRequestProducer streamed = capture.sendable(repeatable);
    for (int i = 0; i < 1_000 && !ended[0]; i++) {
      streamed.produce(channel);
    }
    assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8))
        .as("the held bytes, then the rest from where the producer stopped").isEqualTo(CHAT);
  }

  private static AsyncRequestProducer streamed(MockLlmServer server, ChunkedJsonProducer body) {
    BasicHttpRequest request = new BasicHttpRequest("POST",
        URI.create(server.baseUrl() + "/v1/chat/completions"));
    request.setHeader("Authorization", "Bearer app-key");
    return new BasicRequestProducer(request, body);
  }

  /** What the app got: the future's response, and what its callback was given. */
  private record Answer(SimpleHttpResponse response, CompletableFuture<SimpleHttpResponse> callback) {}

  private Answer execute(SimpleHttpRequest request) throws Exception {
    return execute(SimpleRequestProducer.create(request), request.getUri());
  }

  /** What the hook woven into {@code doExecute} does. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private Answer execute(AsyncRequestProducer producer, URI uri) throws Exception {
    CompletableFuture<SimpleHttpResponse> called = new CompletableFuture<>();
    FutureCallback<SimpleHttpResponse> callback = new FutureCallback<>() {
      @Override
      public void completed(SimpleHttpResponse result) {
        called.complete(result);
      }

      @Override
      public void failed(Exception e) {
        called.completeExceptionally(e);
      }

      @Override
      public void cancelled() {
        called.cancel(false);
      }
    };
    SimpleResponseConsumer consumer = SimpleResponseConsumer.create();
    HttpHost target = new HttpHost(uri.getScheme(), uri.getHost(), uri.getPort());
    RequestCapture head = RequestCapture.head(producer, null);
    Future handled = Async5Execution.run(gate, client, target, producer, head,
        (org.apache.hc.core5.http.nio.AsyncResponseConsumer) consumer, null, null,
        (FutureCallback) callback);
    Future<SimpleHttpResponse> future = handled != null ? handled
        : client.execute(target, head.sendable(producer), consumer, null, null, callback);
    return new Answer(future.get(10, TimeUnit.SECONDS), called);
  }

  private long used() {
    Limits limits = gate.config().provider("primary").orElseThrow().limits().toLimits();
    Decision peek = gate.limiter().reserve(Subject.of("provider", "primary"), limits, 0, 1);
    peek.reservation().ifPresent(gate.limiter()::release);
    return 100_000 - peek.remainingTokens() - 1;
  }

  private void gate(String yaml) {
    gate = Gate.create(config(yaml));
  }

  private static CloseableHttpAsyncClient started() {
    CloseableHttpAsyncClient client = HttpAsyncClients.custom().disableAutomaticRetries().build();
    client.start();
    return client;
  }

  private static SimpleHttpRequest chat(MockLlmServer server) {
    SimpleHttpRequest request = SimpleHttpRequest.create("POST", server.baseUrl() + "/v1/chat/completions");
    request.setHeader("Authorization", "Bearer app-key");
    request.setBody(CHAT, ContentType.APPLICATION_JSON);
    return request;
  }

  /** An in-memory limiter noting the thread of each reserve and release of a call. */
  private static final class ThreadRecordingLimiter extends ForwardingRateLimiter {
    final List<String> reserved = new CopyOnWriteArrayList<>();
    final List<String> released = new CopyOnWriteArrayList<>();

    ThreadRecordingLimiter() {
      super(RateLimiter.inMemory());
    }

    @Override
    public JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
      reserved.add(Thread.currentThread().getName());
      return delegate().reserveAll(charges, requests, tokens);
    }

    @Override
    public void releaseAll(JointDecision decision) {
      released.add(Thread.currentThread().getName());
      delegate().releaseAll(decision);
    }
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
