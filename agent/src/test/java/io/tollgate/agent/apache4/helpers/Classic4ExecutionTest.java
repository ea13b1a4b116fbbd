package io.tollgate.agent.apache4.helpers;

import static io.tollgate.agent.HelperConfigs.config;
import static io.tollgate.agent.HelperConfigs.primaryFallingBackTo;
import static io.tollgate.agent.HelperConfigs.primaryLimitedTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.agent.InternalFailures;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Gate;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Reservation;
import io.tollgate.limiter.Subject;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.http.HttpHost;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.client.methods.HttpUriRequest;
import org.apache.http.entity.ContentType;
import org.apache.http.entity.InputStreamEntity;
import org.apache.http.entity.StringEntity;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The classic HttpClient 4.5 helpers wired by hand (no agent: {@code run} called where the
 * woven hook would call it) on HttpClient 4.5.13, against mock providers; the
 * agent wiring and the newest release are covered by the forked-JVM tests.
 */
class Classic4ExecutionTest {

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();
  /** Retries off, as for HttpClient 5: these tests look at Tollgate alone. */
  @AutoClose static final CloseableHttpClient client = HttpClients.custom().disableAutomaticRetries().build();

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
  void answersALimitedCallWithTheProvidersOwn429AsAClientResponse() throws Exception {
    gate(primaryLimitedTo(primary.baseUrl(), "requests-per-minute: 1"));

    try (CloseableHttpResponse admitted = execute(chat(primary))) {
      assertThat(admitted.getStatusLine().getStatusCode()).isEqualTo(200);
      EntityUtils.consume(admitted.getEntity());
    }
    try (CloseableHttpResponse limited = execute(chat(primary))) {
      assertThat(limited.getStatusLine().getStatusCode()).isEqualTo(429);
      assertThat(limited.getStatusLine().getReasonPhrase()).isEqualTo("Too Many Requests");
      assertThat(limited.getFirstHeader("Retry-After").getValue()).matches("\\d+");
      assertThat(limited.getEntity().getContentType().getValue()).startsWith("application/json");
      assertThat(JSON.readTree(EntityUtils.toString(limited.getEntity())).path("error").path("code")
          .asText()).isEqualTo("rate_limit_exceeded");
    }
    assertThat(primary.requestCount()).isEqualTo(1);
  }

  @Test
  void givesTheAppTheProvidersRefusalIntactWhenTheFallbackIsUnreachable() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(7)));
    gate(primaryFallingBackTo(primary.baseUrl(), NOTHING_LISTENS));

    try (CloseableHttpResponse response = execute(chat(primary))) {
      assertThat(response.getStatusLine().getStatusCode()).isEqualTo(429);
      assertThat(response.getFirstHeader("Retry-After").getValue()).isEqualTo("7");
      assertThat(JSON.readTree(EntityUtils.toString(response.getEntity())).path("error")
          .path("code").asText()).isEqualTo("rate_limit_exceeded");
    }
  }

  @Test
  void sendsTheFallbackItsOwnKeyAndTheAppsBodyAndNeverTheAppsKey() throws Exception {
    primary.script().next(1, Fault.status(500));
    gate(primaryFallingBackTo(primary.baseUrl(), backup.baseUrl()));

    try (CloseableHttpResponse response = execute(chat(primary))) {
      assertThat(response.getStatusLine().getStatusCode()).isEqualTo(200);
      assertThat(JSON.readTree(EntityUtils.toString(response.getEntity())).path("object").asText())
          .isEqualTo("chat.completion");
    }
    String contentType = primary.requests().get(0).header("content-type");
    assertThat(primary.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
    assertThat(contentType).isEqualToIgnoringCase("application/json; charset=UTF-8");
    assertThat(backup.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer backup-key");
      assertThat(r.header("content-type")).as("as the app's entity said").isEqualTo(contentType);
      assertThat(r.bodyText()).isEqualTo(CHAT);
    });
  }

  @Test
  void neverSendsAStreamedBodyToAFallbackButSendsItOnceToTheProviderAddressed() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(1)));
    gate(primaryFallingBackTo(primary.baseUrl(), backup.baseUrl()));
    HttpPost request = new HttpPost(primary.baseUrl() + "/v1/chat/completions");
    request.setEntity(new InputStreamEntity(
        new ByteArrayInputStream(CHAT.getBytes(StandardCharsets.UTF_8)), ContentType.APPLICATION_JSON));

    try (CloseableHttpResponse response = execute(request)) {
      assertThat(response.getStatusLine().getStatusCode()).isEqualTo(429);
    }
    assertThat(primary.requests()).singleElement()
        .satisfies(r -> assertThat(r.bodyText()).isEqualTo(CHAT));
    assertThat(backup.requestCount()).isZero();
  }

  @Test
  void settlesWhatTheStreamReallyUsedOnceTheAppHasReadIt() throws Exception {
    primary.usage(10, 20);
    gate(primaryLimitedTo(primary.baseUrl(), "tokens-per-day: 100000"));
    String stream = "{\"model\":\"gpt-4o\",\"max_tokens\":900,\"stream\":true,"
        + "\"stream_options\":{\"include_usage\":true},"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    HttpPost request = new HttpPost(primary.baseUrl() + "/v1/chat/completions");
    request.setEntity(new StringEntity(stream, ContentType.APPLICATION_JSON));

    try (CloseableHttpResponse response = execute(request)) {
      assertThat(used()).as("reserved while streaming").isGreaterThan(900);
      try (InputStream in = response.getEntity().getContent()) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).endsWith("data: [DONE]\n\n");
      }
    }
    assertThat(used()).as("settled (refill of ~1.2/s aside)").isBetween(30L - 5, 30L);
  }

  @Test
  void letsTheCallProceedUnchangedWhenTollgateItselfFails() throws Exception {
    TollgateConfig config = config(primaryLimitedTo(primary.baseUrl(), "requests-per-minute: 1"));
    gate = Gate.builder(config).limiter(new BrokenLimiter()).build();
    long before = InternalFailures.count(Classic4Execution.WHERE);

    try (CloseableHttpResponse response = execute(chat(primary))) {
      assertThat(response.getStatusLine().getStatusCode()).isEqualTo(200);
    }
    assertThat(InternalFailures.count(Classic4Execution.WHERE)).isEqualTo(before + 1);
    assertThat(primary.requests()).singleElement().satisfies(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer app-key");
      assertThat(r.bodyText()).isEqualTo(CHAT);
    });
  }

  @Test
  void leavesACallToAnotherPortOfTheProvidersHostToTheClient() throws Exception {
    gate("""
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
        """.formatted(primary.baseUrl()));

    assertThat(Classic4Execution.run(gate, client, null, chat(backup), null))
        .as("null: the client runs the call itself").isNull();
    assertThat(backup.requestCount()).isZero();
  }

  /** What the hook woven into {@code doExecute} does. */
  private CloseableHttpResponse execute(HttpUriRequest request) throws Exception {
    URI uri = request.getURI();
    HttpHost target = new HttpHost(uri.getHost(), uri.getPort(), uri.getScheme());
    Object handled = Classic4Execution.run(gate, client, target, request, null);
    if (handled == null) {
      return client.execute(request);
    }
    if (handled instanceof IOException e) {
      throw e;
    }
    if (handled instanceof RuntimeException e) {
      throw e;
    }
    return (CloseableHttpResponse) handled;
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

  private static HttpPost chat(MockLlmServer server) {
    HttpPost post = new HttpPost(server.baseUrl() + "/v1/chat/completions");
    post.setHeader("Authorization", "Bearer app-key");
    post.setEntity(new StringEntity(CHAT, ContentType.APPLICATION_JSON));
    return post;
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
