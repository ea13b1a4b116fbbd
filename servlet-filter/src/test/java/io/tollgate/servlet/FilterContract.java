package io.tollgate.servlet;

import static io.tollgate.servlet.Http.header;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.TokenCounter;
import io.tollgate.testkit.redis.RedisServer;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import redis.clients.jedis.Jedis;

/**
 * What the filter does in a real container, deployed from the test app's web.xml; run against
 * Jetty 12 and Tomcat 11 by its subclasses. Limits come from {@code WEB-INF/classes/tollgate.yaml}:
 * 100 requests an hour and 10 000 tokens a day per tenant, a default output of 100 tokens.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FilterContract {

  static final String CHAT = "/v1/chat/completions";
  static final String CHAT_BODY =
      "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":50}";
  static final String STREAMED_CHAT_BODY = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\","
      + "\"content\":\"Say hello\"}],\"max_tokens\":50,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
  /** What the core's OpenAI protocol estimates for {@link #CHAT_BODY}: 9 prompt tokens + 50 output. */
  static final long ESTIMATE = 59;
  static final long PROMPT_ESTIMATE = 9;
  /** tokens.default-max-output (100) + TollgateFilter.UNREAD_PROMPT_TOKENS (128). */
  static final long UNREAD_ESTIMATE = 228;
  static final long DAILY_TOKENS = 10_000;
  /** The tenant {@code bulk}'s tokens a day, for bodies of megabytes charged by their size. */
  static final long BULK_TOKENS = 100_000_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  RedisServer redis;
  ServletContainer container;

  abstract ServletContainer deploy(Path docBase) throws Exception;

  @BeforeAll
  void start() throws Exception {
    TokenCounter.awaitLoaded(Duration.ofSeconds(30)); // the figures below are the tokenizer's own
    redis = RedisServer.start();
    container = deploy(WebApps.prepare("webapp", redis.uri().toString()));
    assertThat(container.deployed()).as("deployed").isTrue();
  }

  @AfterAll
  void stop() throws Exception {
    if (container != null) {
      container.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  @BeforeEach
  void forgetEveryCharge() {
    redis.flushAll();
  }

  // ---- helpers ----------------------------------------------------------------------------

  HttpResponse<String> chat(String tenant) {
    return chat(tenant, CHAT_BODY);
  }

  HttpResponse<String> chat(String tenant, String body, String... headers) {
    HttpRequest.Builder request = Http.json(container.uri(CHAT), body);
    if (tenant != null) {
      request.header("X-Tenant-Id", tenant);
    }
    if (headers.length > 0) {
      request.headers(headers);
    }
    return Http.send(request);
  }

  static long remainingTokens(HttpResponse<?> response) {
    return Long.parseLong(header(response, "x-ratelimit-remaining-tokens"));
  }

  static long remainingRequests(HttpResponse<?> response) {
    return Long.parseLong(header(response, "x-ratelimit-remaining-requests"));
  }

  static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(EchoServlet.sha256().digest(bytes));
  }

  static JsonNode json(String body) throws Exception {
    return JSON.readTree(body);
  }

  Set<String> limiterKeys() {
    try (Jedis jedis = redis.jedis()) {
      return limiterKeys(jedis);
    }
  }

  /** Redis's keys but the fleet's heartbeats ({@code tg:{fleet}:*}), which every gate on it beats. */
  static Set<String> limiterKeys(Jedis jedis) {
    return jedis.keys("*").stream().filter(key -> !key.startsWith("tg:{fleet}:"))
        .collect(Collectors.toSet());
  }

  // ---- the estimate ------------------------------------------------------------------------

  @Test
  void theEstimateIsTheCoresOwn() {
    long estimate = LlmProtocol.of(ProviderApi.OPENAI)
        .readRequest(CHAT, CHAT_BODY.getBytes(StandardCharsets.UTF_8), 100).estimate().totalTokens();

    assertThat(estimate).isEqualTo(ESTIMATE);
    assertThat(remainingTokens(chat("acme"))).isEqualTo(DAILY_TOKENS - ESTIMATE);
  }

  // ---- what the app reads ------------------------------------------------------------------

  @Test
  void theAppReadsAJsonBodyByteForByteFromTheHeldCopy() {
    byte[] body = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"h\u00e9llo \u2713 \uD83C\uDF89\"}]}"
        .getBytes(StandardCharsets.UTF_8);

    HttpResponse<byte[]> response = Http.sendForBytes(
        Http.post(container.uri("/echo/x"), "application/json", body).header("X-Tenant-Id", "acme"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo(body);
    assertThat(header(response, "x-body-sha256")).isEqualTo(sha256(body));
    assertThat(header(response, "x-held-bytes")).isEqualTo(Integer.toString(body.length));
  }

  @Test
  void theAppReadsTheSameTextByReaderAsWithoutTheFilter() {
    byte[] body = "{\"messages\":[{\"role\":\"user\",\"content\":\"h\u00e9llo \u2713 \uD83C\uDF89\"}]}"
        .getBytes(StandardCharsets.UTF_8);
    for (String contentType : List.of("application/json", "application/json; charset=UTF-8",
        "application/json; charset=ISO-8859-1")) {
      for (String query : List.of("?via=reader", "?via=reader&charset=UTF-8", "?via=reader&charset=UTF-16BE")) {
        HttpResponse<String> unfiltered = Http.send(
            Http.post(container.uri("/plain/echo/x" + query), contentType, body));
        HttpResponse<String> filtered = Http.send(
            Http.post(container.uri("/echo/x" + query), contentType, body).header("X-Tenant-Id", "acme"));

        assertThat(filtered.body()).as(contentType + " " + query).isEqualTo(unfiltered.body());
        assertThat(header(filtered, "x-held-bytes")).isEqualTo(Integer.toString(body.length));
        assertThat(header(unfiltered, "x-held-bytes")).isEqualTo("-1");
      }
    }
  }

  @Test
  void aNonJsonBodyIsNotHeldAndCostsTheUnreadEstimate() {
    byte[] body = "plain text, not an LLM request\n".repeat(100).getBytes(StandardCharsets.UTF_8);

    HttpResponse<byte[]> response = Http.sendForBytes(
        Http.post(container.uri("/echo/x"), "text/plain", body).header("X-Tenant-Id", "acme"));

    assertThat(response.body()).isEqualTo(body);
    assertThat(header(response, "x-held-bytes")).isEqualTo("0");
    assertThat(remainingTokens(response)).isEqualTo(DAILY_TOKENS - UNREAD_ESTIMATE);
  }

  @Test
  void aJsonBodyOverTheCapIsHeldOnlyUpToTheCapAndChargedByItsDeclaredSize() {
    byte[] body = largeJson(2 << 20);

    HttpResponse<String> response = Http.send(
        Http.post(container.uri("/echo/x"), "application/json", body).header("X-Tenant-Id", "bulk"));

    assertThat(header(response, "x-body-length")).isEqualTo(Integer.toString(body.length));
    assertThat(header(response, "x-body-sha256")).isEqualTo(sha256(body));
    assertThat(header(response, "x-held-bytes")).isEqualTo(Integer.toString((1 << 20) + 1));
    assertThat(remainingTokens(response)).as("bytes / 4 rounded up, and the default output")
        .isEqualTo(BULK_TOKENS - ((body.length + 3) / 4 + 100));
  }

  @Test
  void aChunkedJsonBodyOverTheCapIsHeldOnlyUpToTheCapAndSettledByEveryByteRead() {
    byte[] body = largeJson(2 << 20);

    HttpResponse<String> response = Http.send(Http.postChunked(container.uri("/echo/x"), "application/json",
        () -> new ByteArrayInputStream(body)).header("X-Tenant-Id", "bulk"));

    assertThat(header(response, "x-body-length")).isEqualTo(Integer.toString(body.length));
    assertThat(header(response, "x-body-sha256")).isEqualTo(sha256(body));
    assertThat(header(response, "x-held-bytes")).isEqualTo(Integer.toString((1 << 20) + 1));
    long reserved = ((1 << 20) + 1 + 3) / 4 + 100;
    assertThat(remainingTokens(response)).as("the cap + 1 bytes held, / 4 rounded up, and the default output")
        .isEqualTo(BULK_TOKENS - reserved);
    long settled = (body.length + 3) / 4 + 100;
    assertThat(remainingTokens(chat("bulk"))).as("settled by every byte the app read")
        .isEqualTo(BULK_TOKENS - settled - ESTIMATE);
  }

  @Test
  void aFiveMegabyteBodyWithinAWiderCapHasOnly64KiCharactersTokenized() {
    String head = "The quick brown fox jumps over the lazy dog. ".repeat(3_000);
    String content = head + "a".repeat((5 << 20) - head.length());
    byte[] body = ("{\"model\":\"gpt-4o\",\"max_tokens\":50,\"messages\":[{\"role\":\"user\","
        + "\"content\":\"" + content + "\"}]}").getBytes(StandardCharsets.UTF_8);

    HttpResponse<String> response = Http.send(Http.post(container.uri("/large/v1/chat/completions"),
        "application/json", body).header("X-Tenant-Id", "acme"));

    assertThat(header(response, "x-held-bytes")).as("within tokens.max-buffered-body: 8MB")
        .isEqualTo(Integer.toString(body.length));
    assertThat(header(response, "x-body-sha256")).isEqualTo(sha256(body));
    // the documented rule: 64 Ki characters tokenized (the role's 4 first), the rest counted at
    // their rate, rounded up; 3 tokens for the message, 3 for the reply's priming; max_tokens 50
    TokenCounter o200k = TokenCounter.forModel("gpt-4o");
    int tokenized = 64 * 1024 - "user".length();
    long counted = o200k.count("user") + o200k.count(content.substring(0, tokenized));
    long rest = content.length() - tokenized;
    long prompt = counted + (rest * counted + 64 * 1024 - 1) / (64 * 1024) + 3 + 3;
    assertThat(remainingTokens(response)).isEqualTo(100_000_000 - (prompt + 50));
  }

  @Test
  void aChunkedJsonBodyWithinTheCapIsEstimated() {
    HttpResponse<String> response = Http.send(Http.postChunked(container.uri(CHAT), "application/json",
        () -> new ByteArrayInputStream(CHAT_BODY.getBytes(StandardCharsets.UTF_8))).header("X-Tenant-Id", "acme"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(remainingTokens(response)).isEqualTo(DAILY_TOKENS - ESTIMATE);
  }

  @Test
  void aFiftyMegabyteUploadReachesTheAppWholeAndIsNotBuffered() {
    byte[] body = new byte[50 << 20];
    for (int i = 0; i < body.length; i++) {
      body[i] = (byte) (i * 31 + (i >>> 13));
    }

    HttpResponse<String> response = Http.send(
        Http.post(container.uri("/echo/upload"), "application/octet-stream", body).header("X-Tenant-Id", "acme"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(header(response, "x-body-length")).isEqualTo(Integer.toString(50 << 20));
    assertThat(header(response, "x-body-sha256")).isEqualTo(sha256(body));
    assertThat(header(response, "x-held-bytes")).isEqualTo("0");
  }

  @Test
  void aMalformedJsonBodyReachesTheAppUntouchedAndCostsItsSizeAndTheDefaultOutput() {
    byte[] body = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"cut sh"
        .getBytes(StandardCharsets.UTF_8);

    HttpResponse<byte[]> response = Http.sendForBytes(
        Http.post(container.uri("/echo/v1/chat/completions"), "application/json", body).header("X-Tenant-Id", "acme"));

    assertThat(response.body()).isEqualTo(body);
    // The protocol's estimate of a body it cannot read: ceil(62 / 4) + default-max-output.
    assertThat(body.length).isEqualTo(62);
    assertThat(remainingTokens(response)).isEqualTo(DAILY_TOKENS - (16 + 100));
  }

  @Test
  void nonBlockingReadsSeeTheHeldBody() {
    byte[] body = CHAT_BODY.getBytes(StandardCharsets.UTF_8);

    HttpResponse<String> response = Http.send(Http.post(container.uri("/async/v1/chat/completions?mode=nonblocking"),
        "application/json", body).header("X-Tenant-Id", "acme"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(header(response, "x-body-sha256")).isEqualTo(sha256(body));
    assertThat(remainingTokens(response)).isEqualTo(DAILY_TOKENS - ESTIMATE);
  }

  @Test
  void nonBlockingReadsOfAChunkedBodyOverTheCapSeeEveryByte() {
    byte[] body = largeJson(2 << 20);

    HttpResponse<String> response = Http.send(Http.postChunked(
        container.uri("/async/v1/chat/completions?mode=nonblocking"), "application/json",
        () -> new ByteArrayInputStream(body)).header("X-Tenant-Id", "bulk"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(header(response, "x-body-length")).isEqualTo(Integer.toString(body.length));
    assertThat(header(response, "x-body-sha256")).isEqualTo(sha256(body));
    assertThat(remainingTokens(response)).isEqualTo(BULK_TOKENS - (((1 << 20) + 1 + 3) / 4 + 100));
  }

  private static byte[] largeJson(int size) {
    StringBuilder json = new StringBuilder(size + 100).append("{\"model\":\"gpt-4o\",\"messages\":[");
    while (json.length() < size) {
      json.append("{\"role\":\"user\",\"content\":\"a long prompt, piece ").append(json.length()).append("\"},");
    }
    json.setLength(json.length() - 1);
    return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  // ---- settle ------------------------------------------------------------------------------

  @Test
  void settlesWithTheUsageTheAppReports() {
    HttpResponse<String> first = chat("acme", CHAT_BODY, "x-test-usage", "120,30");
    HttpResponse<String> second = chat("acme");

    assertThat(remainingTokens(first)).isEqualTo(DAILY_TOKENS - ESTIMATE);
    assertThat(remainingTokens(second)).isEqualTo(DAILY_TOKENS - 150 - ESTIMATE);
    assertThat(remainingRequests(first)).isEqualTo(99);
    assertThat(remainingRequests(second)).isEqualTo(98);
  }

  @Test
  void settlesWithTheUsageWrittenThroughTheOutputStream() {
    chat("acme", CHAT_BODY, "x-test-usage", "120,30", "x-test-write", "stream");

    assertThat(remainingTokens(chat("acme"))).isEqualTo(DAILY_TOKENS - 150 - ESTIMATE);
  }

  @Test
  void anLlmAnswerWithoutUsageSettlesWithTheProtocolsEstimateOfIt() {
    chat("acme", CHAT_BODY, "x-test-no-usage", "true");

    // The prompt's estimate and the answer's text ("Hello!" is 2 tokens in o200k_base).
    assertThat(remainingTokens(chat("acme"))).isEqualTo(DAILY_TOKENS - (PROMPT_ESTIMATE + 2) - ESTIMATE);
  }

  @Test
  void anAnswerWithNoUsageToReadKeepsTheEstimate() {
    byte[] body = CHAT_BODY.getBytes(StandardCharsets.UTF_8);
    Http.send(Http.post(container.uri("/echo/v1/chat/completions"), "text/plain", body).header("X-Tenant-Id", "acme"));

    assertThat(remainingTokens(chat("acme"))).isEqualTo(DAILY_TOKENS - UNREAD_ESTIMATE - ESTIMATE);
  }

  @Test
  void aRequestWithoutABodyAnsweredWithoutUsageCountsItsRequestButNoTokens() {
    // a page or an API read under a filter mapped to the whole app: reserved, then given back
    HttpResponse<String> page = Http.send(HttpRequest.newBuilder(container.uri("/echo/page"))
        .header("X-Tenant-Id", "acme").GET());

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(remainingTokens(page)).isEqualTo(DAILY_TOKENS - UNREAD_ESTIMATE);
    HttpResponse<String> next = chat("acme");
    assertThat(remainingTokens(next)).isEqualTo(DAILY_TOKENS - ESTIMATE);
    assertThat(remainingRequests(next)).isEqualTo(98);
  }

  @Test
  void aFailedRequestRefundsItsTokensButCountsItsRequest() {
    HttpResponse<String> thrown = Http.send(Http.json(container.uri("/fail/v1/chat/completions"), CHAT_BODY)
        .header("X-Tenant-Id", "acme"));
    HttpResponse<String> upstreamFailure = chat("acme", CHAT_BODY, "x-test-status", "502");
    HttpResponse<String> next = chat("acme");

    assertThat(thrown.statusCode()).isEqualTo(500);
    assertThat(upstreamFailure.statusCode()).isEqualTo(502);
    assertThat(remainingTokens(next)).isEqualTo(DAILY_TOKENS - ESTIMATE);
    assertThat(remainingRequests(next)).isEqualTo(97);
  }

  @Test
  void anSseStreamIsFlushedEventByEventAndSettledFromItsUsageChunk() throws Exception {
    assertStreamsEventByEvent("/sse/v1/chat/completions");
  }

  @Test
  void anAsyncSseStreamWrittenFromAnotherThreadIsFlushedEventByEventAndSettled() throws Exception {
    assertStreamsEventByEvent("/sse/v1/chat/completions?via=stream");
  }

  private void assertStreamsEventByEvent(String path) throws Exception {
    String id = UUID.randomUUID().toString();
    HttpResponse<InputStream> response = Http.sendForStream(Http.json(container.uri(path), STREAMED_CHAT_BODY)
        .header("X-Tenant-Id", "acme").header("x-test-id", id).header("x-test-usage", "40,60"));
    StringBuilder received = new StringBuilder();
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        received.append(line).append('\n');
        if (line.isEmpty() && received.toString().equals(ChatAnswers.chunk("Hel"))) {
          SseServlet.firstEventSeen(id); // the app writes the rest only now
        }
      }
    }

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(header(response, "content-type")).startsWith("text/event-stream");
    assertThat(SseServlet.RELEASED.get(id)).as("the client had the first event before the rest was written").isTrue();
    assertThat(received.toString()).isEqualTo(ChatAnswers.chunk("Hel") + ChatAnswers.chunk("lo")
        + ChatAnswers.usageChunk(new long[] {40, 60}) + "data: [DONE]\n\n");
    assertThat(remainingTokens(chat("acme"))).isEqualTo(DAILY_TOKENS - 100 - ESTIMATE);
  }

  // ---- async -------------------------------------------------------------------------------

  @Test
  void anAsyncAnswerFromAThreadOfTheAppsOwnIsSettledOnCompletion() {
    HttpResponse<String> response = Http.send(Http.json(container.uri("/async/v1/chat/completions?mode=thread"),
        CHAT_BODY).header("X-Tenant-Id", "acme").header("x-test-usage", "200,100"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(header(response, "x-answered-by")).isEqualTo("thread");
    // A thread of the app's own is not the filter's to bind: Tenants.propagate is for that.
    assertThat(header(response, "x-tenant")).isEqualTo("(none)");
    assertThat(remainingTokens(chat("acme"))).isEqualTo(DAILY_TOKENS - 300 - ESTIMATE);
  }

  @Test
  void asyncContextStartRunsWithTheTenantBound() {
    HttpResponse<String> response = Http.send(Http.json(container.uri("/async/v1/chat/completions?mode=start"),
        CHAT_BODY).header("X-Tenant-Id", "acme").header("x-test-usage", "200,100"));

    assertThat(header(response, "x-answered-by")).isEqualTo("start");
    assertThat(header(response, "x-tenant")).isEqualTo("acme");
    assertThat(remainingTokens(chat("acme"))).isEqualTo(DAILY_TOKENS - 300 - ESTIMATE);
  }

  @Test
  void anAsyncListenerRunsWithTheTenantBound() throws Exception {
    String id = UUID.randomUUID().toString();
    Http.send(Http.json(container.uri("/async/v1/chat/completions?mode=listener"), CHAT_BODY)
        .header("X-Tenant-Id", "acme").header("x-test-id", id));

    assertThat(AsyncChatServlet.LISTENER_TENANTS.computeIfAbsent(id, k -> new java.util.concurrent.CompletableFuture<>())
        .get(10, TimeUnit.SECONDS)).isEqualTo("acme");
  }

  @Test
  void anAsyncDispatchRunsWithTheTenantBoundAndIsChargedOnce() {
    HttpResponse<String> response = Http.send(Http.json(container.uri("/async/v1/chat/completions?mode=dispatch"),
        CHAT_BODY).header("X-Tenant-Id", "acme"));

    assertThat(response.body()).isEqualTo("ASYNC acme");
    assertThat(remainingRequests(chat("acme"))).isEqualTo(98);
  }

  // ---- limits and headers ------------------------------------------------------------------

  @Test
  void anAdmittedResponseCarriesTheRateLimitHeaders() {
    HttpResponse<String> response = chat("acme");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(header(response, "x-ratelimit-limit-requests")).isEqualTo("100");
    assertThat(header(response, "x-ratelimit-limit-tokens")).isEqualTo("10000");
    assertThat(header(response, "x-ratelimit-remaining-requests")).isEqualTo("99");
    assertThat(header(response, "x-ratelimit-remaining-tokens")).isEqualTo(Long.toString(DAILY_TOKENS - ESTIMATE));
    assertThat(header(response, "x-ratelimit-reset-requests")).matches("[0-9hms.]+s");
    assertThat(header(response, "x-ratelimit-reset-tokens")).matches("[0-9hms.]+s");
    assertThat(header(response, "retry-after")).isNull();
    assertThat(header(response, "x-tenant")).isEqualTo("acme");
  }

  @Test
  void aSpentBudgetIsRefusedWithInsufficientQuotaAfterCallsSettledAtTheirRealCost()
      throws Exception {
    // reserved at 9 × 2.5 + 50 × 10 = 523 µUSD, settled at 11 × 2.5 + 7 × 10 = 98 (rounded up)
    List<Integer> statuses = List.of(chat("budgeted").statusCode(), chat("budgeted").statusCode());

    HttpResponse<String> refused = chat("budgeted");

    assertThat(statuses).containsExactly(200, 200);
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(header(refused, "x-tollgate")).isEqualTo("budget-spent");
    JsonNode error = json(refused.body()).get("error");
    assertThat(error.get("type").asText()).isEqualTo("insufficient_quota");
    assertThat(error.get("code").asText()).isEqualTo("insufficient_quota");
    assertThat(error.get("message").asText()).isEqualTo("You exceeded your current quota: the spend"
        + " budget of 0.0007 USD per day (UTC) is used up (Remaining 0.000504 USD, Requested"
        + " 0.000523 USD); it starts again at "
        + java.time.LocalDate.now(java.time.ZoneOffset.UTC).plusDays(1) + "T00:00:00Z. (Tollgate)");
  }

  @Test
  void refusesWithA429WhenRequestsRunOutWhileTokensRemain() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertThat(chat("three-an-hour").statusCode()).isEqualTo(200);
    }

    HttpResponse<String> refused = chat("three-an-hour");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(header(refused, "content-type")).startsWith("application/json");
    // One request comes back in 1200 s, counted from the first call (Redis time: 1199 if a second went by).
    assertThat(header(refused, "retry-after")).isIn("1200", "1199");
    assertThat(header(refused, "x-ratelimit-limit-requests")).isEqualTo("3");
    assertThat(header(refused, "x-ratelimit-remaining-requests")).isEqualTo("0");
    assertThat(header(refused, "x-ratelimit-limit-tokens")).isEqualTo("10000");
    assertThat(header(refused, "x-ratelimit-remaining-tokens")).isEqualTo(Long.toString(DAILY_TOKENS - 3 * 18));
    assertThat(header(refused, "x-ratelimit-reset-requests")).isNotNull();
    assertThat(header(refused, "x-tenant")).isNull();
    JsonNode error = json(refused.body()).get("error");
    assertThat(error.get("type").asText()).isEqualTo("requests");
    assertThat(error.get("code").asText()).isEqualTo("rate_limit_exceeded");
    assertThat(error.get("message").asText()).matches("Rate limit reached on requests per hour: Limit 3, Remaining 0\\."
        + " Please try again in (20m0s|19m5[0-9.]+s)\\. \\(Tollgate\\)");
  }

  @Test
  void refusesOnTokensWhileRequestsRemain() throws Exception {
    assertThat(chat("frugal", CHAT_BODY, "x-test-usage", "250,50").statusCode()).isEqualTo(200);

    HttpResponse<String> refused = chat("frugal");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(header(refused, "x-ratelimit-remaining-requests")).isEqualTo("99");
    assertThat(header(refused, "x-ratelimit-remaining-tokens")).isEqualTo("0");
    // 59 tokens at 300 a day come back in 59 × 288 s (Redis time: 16991 if a second went by).
    assertThat(header(refused, "retry-after")).isIn("16992", "16991");
    assertThat(json(refused.body()).at("/error/type").asText()).isEqualTo("tokens");
  }

  /** A request to the {@code tollgate-nested} filter (users inside tenants) as {@code user}, or none. */
  HttpResponse<String> nested(String tenant, String user) {
    HttpRequest.Builder request = Http.json(container.uri("/nested" + CHAT), CHAT_BODY).header("X-Tenant-Id", tenant);
    if (user != null) {
      request.header("X-User-Id", user);
    }
    return Http.send(request);
  }

  @Test
  void aUsersLimitRefusesItWith429WhileAnotherUserOfItsTenantIsServed() throws Exception {
    // each user 2 requests an hour, inside its tenant's 5
    HttpResponse<String> first = nested("acme", "bob");
    HttpResponse<String> second = nested("acme", "bob");

    HttpResponse<String> refused = nested("acme", "bob");
    HttpResponse<String> alice = nested("acme", "alice");
    HttpResponse<String> noUser = nested("acme", null);
    HttpResponse<String> carol = nested("acme", "carol");
    HttpResponse<String> dave = nested("acme", "dave");

    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(header(first, "x-tenant")).isEqualTo("acme");
    assertThat(header(first, "x-user")).isEqualTo("bob");
    assertThat(remainingRequests(first)).as("the tighter of bob's 1 and acme's 4").isEqualTo(1);
    assertThat(remainingRequests(second)).isZero();
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(header(refused, "x-tollgate")).isEqualTo("rate-limited");
    assertThat(header(refused, "x-ratelimit-limit-requests")).isEqualTo("2");
    assertThat(json(refused.body()).at("/error/message").asText()).matches("Rate limit reached on the"
        + " user's requests per hour: Limit 2, Remaining 0\\. Please try again in (30m0s|29m5[0-9.]+s)\\."
        + " \\(Tollgate\\)");
    assertThat(alice.statusCode()).as("another user of acme").isEqualTo(200);
    assertThat(header(alice, "x-user")).isEqualTo("alice");
    assertThat(remainingRequests(alice)).as("alice's 1; acme has 2 left").isEqualTo(1);
    assertThat(noUser.statusCode()).as("no user header: the tenant alone").isEqualTo(200);
    assertThat(header(noUser, "x-user")).isNull();
    assertThat(remainingRequests(noUser)).isEqualTo(1);
    assertThat(carol.statusCode()).isEqualTo(200);
    assertThat(dave.statusCode()).as("acme's 5 are spent: no user exceeds its tenant").isEqualTo(429);
    assertThat(json(dave.body()).at("/error/message").asText())
        .startsWith("Rate limit reached on requests per hour: Limit 5, Remaining 0.");
    assertThat(limiterKeys()).containsExactlyInAnyOrder(
        "tg:" + Subject.of("inbound", "acme").hashTag() + ":s",
        "tg:" + Subject.of("inbound-user", "4:acme:bob").hashTag() + ":s",
        "tg:" + Subject.of("inbound-user", "4:acme:alice").hashTag() + ":s",
        "tg:" + Subject.of("inbound-user", "4:acme:carol").hashTag() + ":s",
        "tg:" + Subject.of("inbound-user", "4:acme:dave").hashTag() + ":s");
  }

  @Test
  void anOverrideReplacesOnlyTheKeysItNames() {
    HttpResponse<String> premium = chat("premium");
    HttpResponse<String> frugal = chat("frugal");

    assertThat(header(premium, "x-ratelimit-limit-requests")).isEqualTo("1000");
    assertThat(header(premium, "x-ratelimit-limit-tokens")).isEqualTo("50000");
    assertThat(header(frugal, "x-ratelimit-limit-requests")).isEqualTo("100");
    assertThat(header(frugal, "x-ratelimit-limit-tokens")).isEqualTo("300");
  }

  @Test
  void aRequestLargerThanTheTenantsTokenCapacityNeverFits() throws Exception {
    HttpResponse<String> refused = chat("tiny");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(header(refused, "retry-after")).isNull();
    assertThat(json(refused.body()).at("/error/type").asText()).isEqualTo("tokens");
    assertThat(json(refused.body()).at("/error/message").asText()).isEqualTo("Request too large on tokens per day (TPD):"
        + " Requested 59. The input or output tokens must be reduced in order to run successfully. (Tollgate)");
  }

  @Test
  void aRequestAskingForLongMaxTokensNeverFitsAndTheAppIsNotCalled() throws Exception {
    HttpResponse<String> refused = chat("acme", "{\"model\":\"gpt-4o\",\"max_tokens\":9223372036854775807,"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(header(refused, "retry-after")).isNull();
    assertThat(header(refused, "x-test-decision")).isNull(); // set by the app's servlet
    assertThat(json(refused.body()).at("/error/message").asText()).isEqualTo("Request too large on tokens per day (TPD):"
        + " Requested 1125899906842624. The input or output tokens must be reduced in order to run successfully."
        + " (Tollgate)");
    assertThat(remainingRequests(chat("acme"))).isEqualTo(99); // the refusal charged nothing
  }

  // ---- tenants -----------------------------------------------------------------------------

  @Test
  void aRequestWithoutATenantIsRefusedWith400() throws Exception {
    HttpResponse<String> refused = chat(null);

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(header(refused, "x-tenant")).isNull();
    assertThat(json(refused.body())).isEqualTo(json("{\"error\":{\"message\":\"Missing tenant: this endpoint needs"
        + " the X-Tenant-Id header to know who is calling. (Tollgate)\",\"type\":\"invalid_request_error\","
        + "\"param\":null,\"code\":\"missing_tenant\"}}"));
  }

  @Test
  void aRequestWithoutATenantIsChargedToTheDefaultTenantWhenConfigured() {
    HttpResponse<String> first = Http.send(Http.json(container.uri("/defaulted" + CHAT), CHAT_BODY));
    HttpResponse<String> second = Http.send(Http.json(container.uri("/defaulted" + CHAT), CHAT_BODY));
    HttpResponse<String> named = Http.send(Http.json(container.uri("/defaulted" + CHAT), CHAT_BODY)
        .header("X-Tenant-Id", "acme"));

    assertThat(header(first, "x-tenant")).isEqualTo("anonymous");
    assertThat(remainingRequests(second)).isEqualTo(98);
    assertThat(header(named, "x-tenant")).isEqualTo("acme");
    assertThat(remainingRequests(named)).isEqualTo(99);
  }

  @Test
  void anApiKeyTenantIsAHashOfTheKeyAndTheKeyIsKeptNowhere() {
    HttpRequest.Builder request = Http.json(container.uri("/keys" + CHAT), CHAT_BODY)
        .header("Authorization", "Bearer sk-test-123");

    HttpResponse<String> first = Http.send(request);
    HttpResponse<String> second = Http.send(Http.json(container.uri("/keys" + CHAT), CHAT_BODY)
        .header("Authorization", "Bearer sk-test-123"));
    HttpResponse<String> third = Http.send(Http.json(container.uri("/keys" + CHAT), CHAT_BODY)
        .header("Authorization", "Bearer sk-test-123"));
    HttpResponse<String> otherKey = Http.send(Http.json(container.uri("/keys" + CHAT), CHAT_BODY)
        .header("Authorization", "Bearer sk-test-456"));

    assertThat(header(first, "x-tenant")).isEqualTo(TenantResolver.apiKeyTenant("sk-test-123"))
        .doesNotContain("sk-test");
    assertThat(List.of(first.statusCode(), second.statusCode(), third.statusCode(), otherKey.statusCode()))
        .containsExactly(200, 200, 429, 200);
    assertThat(limiterKeys()).hasSize(2).noneMatch(key -> key.contains("sk-test"));
  }

  @Test
  void anApiKeyOverrideNamesTheKeysHash() {
    HttpResponse<String> response = Http.send(Http.json(container.uri("/keys" + CHAT), CHAT_BODY)
        .header("Authorization", "Bearer sk-premium-1"));

    assertThat(header(response, "x-ratelimit-limit-requests")).isEqualTo("4");
  }

  @Test
  void aRequestWithoutAnApiKeyIsRefusedWith401AndABearerChallenge() throws Exception {
    HttpResponse<String> refused = Http.send(Http.json(container.uri("/keys" + CHAT), CHAT_BODY)
        .header("Authorization", "Bearer "));

    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(header(refused, "www-authenticate")).isEqualTo("Bearer");
    assertThat(json(refused.body()).at("/error/message").asText()).isEqualTo(
        "Missing credentials: this endpoint needs an API key in the Authorization header to know who is calling. (Tollgate)");
  }

  @Test
  void theSignedInUserIsTheTenantWithTenantFromPrincipal() {
    HttpResponse<String> alice = Http.send(Http.json(container.uri("/users" + CHAT), CHAT_BODY)
        .header("X-Test-User", "alice").header("X-Tenant-Id", "not-this"));
    HttpResponse<String> anonymous = Http.send(Http.json(container.uri("/users" + CHAT), CHAT_BODY));

    assertThat(header(alice, "x-tenant")).isEqualTo("alice");
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(header(anonymous, "www-authenticate")).isNull();
    assertThat(anonymous.body()).contains("Missing credentials: this endpoint needs an authenticated user to know"
        + " who is calling. (Tollgate)");
  }

  @Test
  void oddTenantIdsAreDistinctSubjectsAndNeverReachRedisRaw() {
    List<String> odd = List.of("{acme}", "acme}", "tg:{inbound:x}:s", "x".repeat(128));
    for (String tenant : odd) {
      HttpResponse<String> response = Http.send(Http.json(container.uri(CHAT), CHAT_BODY).header("X-Tenant-Base64",
          Base64.getUrlEncoder().encodeToString(tenant.getBytes(StandardCharsets.UTF_8))));
      assertThat(response.statusCode()).as(tenant).isEqualTo(200);
      assertThat(remainingRequests(response)).as("a fresh bucket for " + tenant).isEqualTo(99);
    }
    HttpResponse<String> direct = chat("x".repeat(128)); // in a real header, too

    Set<String> keys = limiterKeys();
    assertThat(remainingRequests(direct)).isEqualTo(98);
    assertThat(keys).hasSize(odd.size())
        .allMatch(key -> key.matches("tg:\\{inbound:[A-Za-z0-9_-]{20}}:s"), "a hashed subject")
        .noneMatch(key -> key.contains("acme") || key.contains("xxxx"));
  }

  @Test
  void hostileTenantIdsAreRefusedWith400AndNeverReachRedis() throws Exception {
    String long10k = "x".repeat(10 * 1024);
    List<String> hostile = List.of("{acme}\n", "acme\r\nX-Injected: 1", "acme corp", long10k);
    for (String tenant : hostile) {
      HttpResponse<String> response = Http.send(Http.json(container.uri(CHAT), CHAT_BODY).header("X-Tenant-Base64",
          Base64.getUrlEncoder().encodeToString(tenant.getBytes(StandardCharsets.UTF_8))));
      assertThat(response.statusCode()).as(tenant).isEqualTo(400);
      // the body is left unread: the client is told not to send its next request on the connection
      assertThat(header(response, "connection")).isEqualTo("close");
      assertThat(json(response.body()).at("/error/code").asText()).isEqualTo("invalid_tenant");
      assertThat(response.body()).doesNotContain("acme", "xxxx");
    }
    HttpResponse<String> direct = chat(long10k); // 10 KB in a real header, too

    assertThat(direct.statusCode()).isEqualTo(400);
    assertThat(header(direct, "x-tenant")).isNull();
    assertThat(limiterKeys()).isEmpty();
  }

  // ---- the status page (tollgate.status.path) ---------------------------------------------

  static final String STATUS_TOKEN = "status-token-of-the-filter-tests";

  @Test
  void theStatusPageShowsTheTenantsChargesToLoopbackAndIsChargedToNobody() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertThat(Http.send(Http.json(container.uri("/watched" + CHAT), CHAT_BODY)
          .header("X-Tenant-Id", "watched")).statusCode()).isEqualTo(200);
    }
    String page = "/watched/tollgate/status";

    HttpResponse<String> data = Http.send(HttpRequest.newBuilder(container.uri(page + "?view=status")));
    HttpResponse<String> html = Http.send(HttpRequest.newBuilder(container.uri(page))
        .header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8"));
    HttpResponse<String> proxied = Http.send(HttpRequest.newBuilder(container.uri(page + "?view=status"))
        .header("X-Forwarded-For", "203.0.113.7"));
    HttpResponse<String> again = Http.send(HttpRequest.newBuilder(container.uri(page + "?view=status")));

    assertThat(data.statusCode()).as("no tenant named, none asked for").isEqualTo(200);
    assertThat(header(data, "content-type")).isEqualTo("application/json");
    assertThat(header(data, "cache-control")).isEqualTo("no-store");
    JsonNode tenant = json(data.body()).get("tenants").get(0);
    assertThat(tenant.get("name").asText()).isEqualTo("watched");
    assertThat(tenant.get("calls").asLong()).isEqualTo(3);
    assertThat(tenant.get("refused").asLong()).isZero();
    JsonNode requests = tenant.get("inbound").get(0);
    assertThat(requests.get("limit").asText()).isEqualTo("requests-per-hour");
    assertThat(requests.get("capacity").asLong()).isEqualTo(5);
    assertThat(requests.get("remaining").asLong()).isEqualTo(2);
    JsonNode self = json(data.body()).get("fleet").get(0);
    assertThat(self.get("frontEnd").asText()).isEqualTo("filter");
    assertThat(self.get("self").asBoolean()).isTrue();

    assertThat(html.statusCode()).isEqualTo(200);
    assertThat(header(html, "content-type")).as("as the container writes it")
        .isEqualToIgnoringWhitespace("text/html; charset=utf-8");
    assertThat(header(html, "content-security-policy")).contains("script-src 'sha256-");
    assertThat(html.body()).contains("<title>Tollgate status</title>").doesNotContain("watched");

    assertThat(proxied.statusCode()).as("a proxy's peer is not the reader").isEqualTo(401);
    assertThat(proxied.body()).isEqualTo("{\"error\":\"beyond loopback the status data needs"
        + " tollgate.status.token, sent as a bearer token\"}");
    assertThat(json(again.body()).get("tenants")).as("reading the page charged nobody").hasSize(1);
    assertThat(json(again.body()).get("tenants").get(0).get("calls").asLong()).isEqualTo(3);
  }

  @Test
  void theStatusPagesDataNeedsTheConfiguredToken() throws Exception {
    String data = "/keys/tollgate/status?view=status";

    HttpResponse<String> none = Http.send(HttpRequest.newBuilder(container.uri(data)));
    HttpResponse<String> wrong = Http.send(HttpRequest.newBuilder(container.uri(data))
        .header("Authorization", "Bearer sk-test-123"));
    HttpResponse<String> right = Http.send(HttpRequest.newBuilder(container.uri(data))
        .header("Authorization", "Bearer " + STATUS_TOKEN));

    assertThat(none.statusCode()).as("from loopback too").isEqualTo(401);
    assertThat(header(none, "www-authenticate")).isEqualTo("Bearer realm=\"tollgate\"");
    assertThat(none.body())
        .isEqualTo("{\"error\":\"a valid bearer token is required (tollgate.status.token)\"}");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.body()).isEqualTo(none.body());
    assertThat(right.statusCode()).isEqualTo(200);
    assertThat(json(right.body()).get("mode").asText()).isEqualTo("enforce");
    assertThat(json(right.body()).get("limiter").asText()).isEqualTo("redis");
    assertThat(json(right.body()).get("fleet").get(0).get("frontEnd").asText()).isEqualTo("filter");
  }

  @Test
  void theStatusPagesApiSetsALiveOverrideWithTheTokenThatTheFilterAppliesAtOnce() throws Exception {
    String api = "/keys/tollgate/status?view=overrides";
    // the app's tenant is its key's hash, and its configuration allows 2 requests an hour
    String tenant = TenantResolver.apiKeyTenant("sk-raised-1");
    String change = "{\"action\":\"set\",\"tenant\":\"" + tenant + "\","
        + "\"limits\":{\"requests-per-hour\":3},\"by\":\"alice\"}";

    HttpResponse<String> anonymous = Http.send(Http.json(container.uri(api), change));
    HttpResponse<String> set = Http.send(Http.json(container.uri(api), change)
        .header("Authorization", "Bearer " + STATUS_TOKEN));
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      statuses.add(Http.send(Http.json(container.uri("/keys" + CHAT), CHAT_BODY)
          .header("Authorization", "Bearer sk-raised-1")).statusCode());
    }
    HttpResponse<String> read = Http.send(HttpRequest.newBuilder(container.uri(api))
        .header("Authorization", "Bearer " + STATUS_TOKEN));

    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    assertThat(header(set, "content-type")).isEqualTo("application/json");
    JsonNode made = json(set.body());
    assertThat(made.get("action").asText()).isEqualTo("set");
    assertThat(made.get("label").asText()).isEqualTo("tenant " + tenant);
    assertThat(made.get("by").asText()).isEqualTo("alice via 127.0.0.1");
    assertThat(made.get("after").toString()).isEqualTo("{\"requests-per-hour\":\"3\"}");
    assertThat(statuses).containsExactly(200, 200, 200, 429);
    assertThat(read.statusCode()).isEqualTo(200);
    JsonNode overrides = json(read.body());
    assertThat(overrides.get("version").asLong()).isEqualTo(made.get("version").asLong());
    assertThat(overrides.at("/overrides/0/label").asText()).isEqualTo("tenant " + tenant);
    assertThat(overrides.at("/overrides/0/limits").toString()).isEqualTo("{\"requests-per-hour\":\"3\"}");
    assertThat(overrides.at("/audit/0/by").asText()).isEqualTo("alice via 127.0.0.1");
    assertThat(overrides.get("audit")).hasSize(1);
  }

  // ---- shadow ------------------------------------------------------------------------------

  @Test
  void shadowModeDecidesButNeverRefusesNorAddsHeaders() {
    List<HttpResponse<String>> responses = Arrays.asList(
        Http.send(Http.json(container.uri("/shadow" + CHAT), CHAT_BODY).header("X-Tenant-Id", "acme")),
        Http.send(Http.json(container.uri("/shadow" + CHAT), CHAT_BODY).header("X-Tenant-Id", "acme")),
        Http.send(Http.json(container.uri("/shadow" + CHAT), CHAT_BODY)));

    assertThat(responses).extracting(HttpResponse::statusCode).containsExactly(200, 200, 200);
    assertThat(responses).extracting(r -> header(r, "x-test-decision")).containsExactly("ALLOWED", "DENIED", "(none)");
    assertThat(responses).extracting(r -> header(r, "x-tenant")).containsExactly("acme", "acme", "(none)");
    assertThat(responses).allMatch(r -> header(r, "x-ratelimit-limit-requests") == null, "no rate-limit headers");
  }
}
