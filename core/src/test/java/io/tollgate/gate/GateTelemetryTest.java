package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static io.tollgate.telemetry.TollgateAttributes.ATTEMPT;
import static io.tollgate.telemetry.TollgateAttributes.BREAKER_PREVIOUS_STATE;
import static io.tollgate.telemetry.TollgateAttributes.BREAKER_REASON;
import static io.tollgate.telemetry.TollgateAttributes.BREAKER_STATE;
import static io.tollgate.telemetry.TollgateAttributes.DECISION;
import static io.tollgate.telemetry.TollgateAttributes.DEGRADED;
import static io.tollgate.telemetry.TollgateAttributes.DIRECTION;
import static io.tollgate.telemetry.TollgateAttributes.ERROR_TYPE;
import static io.tollgate.telemetry.TollgateAttributes.FALLBACK_FROM;
import static io.tollgate.telemetry.TollgateAttributes.FALLBACK_TO;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_PROVIDER_NAME;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_REQUEST_MODEL;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_RESPONSE_MODEL;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_SYSTEM;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_TOKEN_TYPE;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_USAGE_INPUT_TOKENS;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_USAGE_OUTPUT_TOKENS;
import static io.tollgate.telemetry.TollgateAttributes.HTTP_RESPONSE_STATUS_CODE;
import static io.tollgate.telemetry.TollgateAttributes.LIMIT;
import static io.tollgate.telemetry.TollgateAttributes.MODE;
import static io.tollgate.telemetry.TollgateAttributes.PROVIDER;
import static io.tollgate.telemetry.TollgateAttributes.SKIP_REASON;
import static io.tollgate.telemetry.TollgateAttributes.TENANT_HASH;
import static io.tollgate.telemetry.TollgateAttributes.TOKENS_RESERVED;
import static io.tollgate.telemetry.TollgateAttributes.TOKENS_SETTLED;
import static io.tollgate.telemetry.TollgateAttributes.WAIT_MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.TokenCounter;
import io.tollgate.telemetry.TelemetryCapture;
import io.tollgate.telemetry.TelemetryNames;
import io.tollgate.telemetry.TollgateAttributes;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The spans and metrics of calls through the gate, read back from an in-memory SDK. */
class GateTelemetryTest {

  private static final String APP_KEY = "sk-app-7f3a9c";
  private static final String BACKUP_KEY = "sk-backup-51be02";
  private static final String TENANT = "tenant-raw-id-acme";

  private final TelemetryCapture capture = new TelemetryCapture();
  private final SpanNotingTransport transport = new SpanNotingTransport();
  private MockLlmServer primary;
  private MockLlmServer backup;
  private long estimate;

  @BeforeEach
  void start() {
    primary = MockLlmServer.start().usage(100, 20);
    backup = MockLlmServer.start().usage(100, 20);
    // the estimate this test expects is the tokenizer's, not the stand-in used while it loads
    TokenCounter.awaitLoaded(Duration.ofSeconds(30));
    estimate = ProviderApi.OPENAI.protocol()
        .readRequest("/v1/chat/completions", CHAT.getBytes(StandardCharsets.UTF_8), 1024)
        .estimate().totalTokens();
  }

  @AfterEach
  void stop() {
    primary.close();
    backup.close();
    capture.close();
  }

  private Gate gate(String settings, String primaryLimits) {
    return Gate.builder(config("""
        tollgate:
        %s
          breaker:
            failures: 1
            open-for: 30s
          tenants:
            header: X-Tenant-Id
            limits: { requests-per-hour: 100 }
          providers:
            primary:
              base-url: %s
              limits: { %s }
              fallbacks: [backup]
            backup:
              base-url: %s
              api-key: ${BACKUP_KEY}
              model-map:
                gpt-4o: gpt-4o-mini
        """.formatted(settings, primary.baseUrl(), primaryLimits, backup.baseUrl()),
        Map.of("BACKUP_KEY", BACKUP_KEY))).openTelemetry(capture.sdk()).build();
  }

  private CallResult<HttpResponse<InputStream>> call(Gate gate) throws Exception {
    try (Tenants.Scope tenant = Tenants.bind(TENANT)) {
      CallResult<HttpResponse<InputStream>> result =
          gate.call(chat(primary.baseUrl(), APP_KEY, CHAT), true, transport);
      if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
        readBody(result);
      }
      return result;
    }
  }

  @Test
  void anAllowedCallIsOneSpanWithItsAttemptUsageAndSettlement() throws Exception {
    try (Gate gate = gate("", "requests-per-hour: 10")) {
      assertThat(status(call(gate))).isEqualTo(200);
      assertThat(capture.value(TelemetryNames.BREAKER_STATE_METRIC, Attributes.of(PROVIDER, "primary")))
          .contains(0.0);
      assertThat(capture.value(TelemetryNames.BREAKER_STATE_METRIC, Attributes.of(PROVIDER, "backup")))
          .contains(0.0);
    }

    SpanData call = capture.span(TelemetryNames.CALL_SPAN);
    assertThat(call.getAttributes().asMap()).isEqualTo(Attributes.builder()
        .put(GEN_AI_PROVIDER_NAME, "openai")
        .put(GEN_AI_SYSTEM, "openai")
        .put(GEN_AI_REQUEST_MODEL, "gpt-4o")
        .put(GEN_AI_RESPONSE_MODEL, "gpt-4o")
        .put(GEN_AI_USAGE_INPUT_TOKENS, 100L)
        .put(GEN_AI_USAGE_OUTPUT_TOKENS, 20L)
        .put(PROVIDER, "primary")
        .put(MODE, "enforce")
        .put(TENANT_HASH, Subject.of("tenant", TENANT).idHash())
        .put(TOKENS_RESERVED, estimate)
        .put(TOKENS_SETTLED, 120L)
        // gpt-4o at the bundled 2.50 and 10.00 USD per million: 100 × 2.5 + 20 × 10 µUSD
        .put(TollgateAttributes.COST, 450e-6)
        .put(ATTEMPT, 1L)
        .put(DECISION, "allowed")
        .put(DEGRADED, false)
        .build().asMap());
    assertThat(call.getEvents()).isEmpty();
    SpanData attempt = capture.span(TelemetryNames.ATTEMPT_SPAN);
    assertThat(attempt.getParentSpanId()).isEqualTo(call.getSpanId());
    assertThat(attempt.getAttributes().asMap()).isEqualTo(Attributes.builder()
        .put(PROVIDER, "primary").put(ATTEMPT, 1L).put(GEN_AI_REQUEST_MODEL, "gpt-4o")
        .put(BREAKER_STATE, "closed").put(HTTP_RESPONSE_STATUS_CODE, 200L).build().asMap());

    assertThat(capture.value(TelemetryNames.DECISIONS_METRIC, Attributes.of(
        DECISION, "allowed", DIRECTION, "outbound", PROVIDER, "primary"))).contains(1.0);
    assertThat(capture.value(TelemetryNames.TOKENS_RESERVED_METRIC, Attributes.of(PROVIDER, "primary")))
        .contains((double) estimate);
    assertThat(capture.value(TelemetryNames.TOKENS_USED_METRIC,
        Attributes.of(PROVIDER, "primary", GEN_AI_TOKEN_TYPE, "input"))).contains(100.0);
    assertThat(capture.value(TelemetryNames.TOKENS_USED_METRIC,
        Attributes.of(PROVIDER, "primary", GEN_AI_TOKEN_TYPE, "output"))).contains(20.0);
    assertThat(capture.value(TelemetryNames.LIMITER_DURATION_METRIC,
        Attributes.of(PROVIDER, "primary", DEGRADED, false))).contains(1.0);
  }

  @Test
  void aModelNameFromTheRequestIsCutToTheAttributeCap() throws Exception {
    String model = "x".repeat(10_000);
    try (Gate gate = gate("", "requests-per-hour: 10")) {
      CallResult<HttpResponse<InputStream>> result = gate.call(chat(primary.baseUrl(), APP_KEY,
          CHAT.replace("\"gpt-4o\"", "\"" + model + "\"")), true, transport);
      readBody(result);
    }

    String cut = "x".repeat(127) + "\u2026";
    assertThat(capture.span(TelemetryNames.CALL_SPAN).getAttributes().get(GEN_AI_REQUEST_MODEL)).isEqualTo(cut);
    assertThat(capture.span(TelemetryNames.ATTEMPT_SPAN).getAttributes().get(GEN_AI_REQUEST_MODEL)).isEqualTo(cut);
  }

  @Test
  void theCallSpanIsAChildOfTheAppsSpanAndTheAttemptIsCurrentWhileSent() throws Exception {
    Span app = capture.sdk().getTracer("app").spanBuilder("app.request").startSpan();
    try (Gate gate = gate("", "requests-per-hour: 10"); Scope scope = app.makeCurrent()) {
      call(gate);
    } finally {
      app.end();
    }
    SpanData call = capture.span(TelemetryNames.CALL_SPAN);
    assertThat(call.getTraceId()).isEqualTo(app.getSpanContext().getTraceId());
    assertThat(call.getParentSpanId()).isEqualTo(app.getSpanContext().getSpanId());
    assertThat(transport.sentUnder()).containsExactly(capture.span(TelemetryNames.ATTEMPT_SPAN).getSpanId());
  }

  @Test
  void anAsynchronousCallHasTheSameSpansAndItsAttemptIsCurrentWhenSent() throws Exception {
    primary.script().next(1, Fault.status(503));
    List<String> sentUnder = new java.util.concurrent.CopyOnWriteArrayList<>();
    AsyncTransport<HttpResponse<InputStream>> jdk = new JdkTransport(Duration.ofSeconds(10)).async();
    AsyncTransport<HttpResponse<InputStream>> noting = new AsyncTransport<>() {
      @Override
      public java.util.concurrent.CompletableFuture<HttpResponse<InputStream>> send(
          io.tollgate.router.OutboundRequest request) {
        sentUnder.add(Span.current().getSpanContext().getSpanId());
        return jdk.send(request);
      }

      @Override
      public int status(HttpResponse<InputStream> response) {
        return jdk.status(response);
      }

      @Override
      public io.tollgate.llm.Headers headers(HttpResponse<InputStream> response) {
        return jdk.headers(response);
      }

      @Override
      public void discard(HttpResponse<InputStream> response) {
        jdk.discard(response);
      }
    };
    try (Gate gate = gate("", "requests-per-hour: 10"); Tenants.Scope tenant = Tenants.bind(TENANT)) {
      CallResult<HttpResponse<InputStream>> result = gate.callAsync(
          chat(primary.baseUrl(), APP_KEY, CHAT), true, noting).get(20, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(result.provider()).isEqualTo("backup");
      readBody(result);
    }
    SpanData call = capture.span(TelemetryNames.CALL_SPAN);
    assertThat(call.getAttributes().get(DECISION)).as(call.toString()).isEqualTo("fallback");
    assertThat(call.getAttributes().get(TOKENS_SETTLED)).as(call.toString()).isEqualTo(120L);
    List<SpanData> attempts = capture.spans(TelemetryNames.ATTEMPT_SPAN);
    assertThat(attempts).extracting(SpanData::getParentSpanId).containsOnly(call.getSpanId());
    assertThat(sentUnder).containsExactlyElementsOf(attempts.stream().map(SpanData::getSpanId).toList());
  }

  @Test
  void aDeniedCallNamesTheLimitThatDenied() throws Exception {
    try (Gate gate = Gate.builder(config("""
        tollgate:
          tenants:
            header: X-Tenant-Id
            limits: { requests-per-hour: 1 }
          providers:
            primary:
              base-url: %s
              limits: { requests-per-hour: 10 }
        """.formatted(primary.baseUrl()), Map.of())).openTelemetry(capture.sdk()).build()) {
      call(gate);
      capture.reset();
      assertThat(status(call(gate))).isEqualTo(429);
    }

    SpanData call = capture.span(TelemetryNames.CALL_SPAN);
    assertThat(call.getAttributes().get(DECISION)).isEqualTo("denied");
    assertThat(call.getAttributes().get(LIMIT)).isEqualTo("tenant:requests-per-hour");
    assertThat(call.getAttributes().get(ATTEMPT)).isNull();
    assertThat(call.getEvents()).extracting(EventData::getName, EventData::getAttributes)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(TelemetryNames.SKIPPED_EVENT, Attributes.of(
            PROVIDER, "primary", SKIP_REASON, "limited", LIMIT, "tenant:requests-per-hour")));
    assertThat(capture.spans(TelemetryNames.ATTEMPT_SPAN)).isEmpty();
    assertThat(capture.value(TelemetryNames.DECISIONS_METRIC, Attributes.of(
        DECISION, "denied", DIRECTION, "outbound", PROVIDER, "primary"))).contains(1.0);
  }

  @Test
  void shadowModeReportsTheWouldBeDenialAndSendsAnyway() throws Exception {
    try (Gate gate = gate("  mode: shadow", "tokens-per-hour: " + estimate)) {
      call(gate);
      capture.reset();
      assertThat(status(call(gate))).isEqualTo(200);
    }
    SpanData call = capture.span(TelemetryNames.CALL_SPAN);
    assertThat(call.getAttributes().get(DECISION)).isEqualTo("shadow_denied");
    assertThat(call.getAttributes().get(MODE)).isEqualTo("shadow");
    assertThat(call.getAttributes().get(LIMIT)).isEqualTo("provider:tokens-per-hour");
    assertThat(call.getAttributes().get(TOKENS_SETTLED)).isNull(); // nothing was reserved
    assertThat(capture.span(TelemetryNames.ATTEMPT_SPAN).getAttributes().get(HTTP_RESPONSE_STATUS_CODE))
        .isEqualTo(200L);
    assertThat(capture.span(TelemetryNames.ATTEMPT_SPAN).getAttributes().get(BREAKER_STATE)).isNull();
    assertThat(capture.value(TelemetryNames.DECISIONS_METRIC, Attributes.of(
        DECISION, "shadow_allowed", DIRECTION, "outbound", PROVIDER, "primary"))).contains(1.0);
    assertThat(capture.value(TelemetryNames.DECISIONS_METRIC, Attributes.of(
        DECISION, "shadow_denied", DIRECTION, "outbound", PROVIDER, "primary"))).contains(1.0);
  }

  @Test
  void aFallbackIsTwoAttemptsAFallbackEventAndTheBreakerOpening() throws Exception {
    primary.script().next(1, Fault.status(503));
    try (Gate gate = gate("", "requests-per-hour: 10")) {
      assertThat(call(gate).provider()).isEqualTo("backup");
      assertThat(capture.value(TelemetryNames.BREAKER_STATE_METRIC, Attributes.of(PROVIDER, "primary")))
          .contains(2.0);
    }

    SpanData call = capture.span(TelemetryNames.CALL_SPAN);
    assertThat(call.getAttributes().get(DECISION)).isEqualTo("fallback");
    assertThat(call.getAttributes().get(PROVIDER)).isEqualTo("backup");
    assertThat(call.getAttributes().get(FALLBACK_FROM)).isEqualTo("primary");
    assertThat(call.getAttributes().get(FALLBACK_TO)).isEqualTo("backup");
    assertThat(call.getAttributes().get(ATTEMPT)).isEqualTo(2L);
    assertThat(call.getAttributes().get(GEN_AI_RESPONSE_MODEL)).isEqualTo("gpt-4o-mini");
    assertThat(call.getEvents()).extracting(EventData::getName, EventData::getAttributes).containsExactly(
        org.assertj.core.groups.Tuple.tuple(TelemetryNames.BREAKER_TRANSITION_EVENT, Attributes.of(
            PROVIDER, "primary", BREAKER_PREVIOUS_STATE, "closed", BREAKER_STATE, "open",
            BREAKER_REASON, "failures")),
        org.assertj.core.groups.Tuple.tuple(TelemetryNames.FALLBACK_EVENT, Attributes.of(
            FALLBACK_FROM, "primary", FALLBACK_TO, "backup", ATTEMPT, 2L)));
    List<SpanData> attempts = capture.spans(TelemetryNames.ATTEMPT_SPAN);
    assertThat(attempts).extracting(span -> span.getAttributes().get(PROVIDER))
        .containsExactly("primary", "backup");
    assertThat(attempts.get(0).getAttributes().get(HTTP_RESPONSE_STATUS_CODE)).isEqualTo(503L);
    assertThat(attempts.get(0).getAttributes().get(ERROR_TYPE)).isEqualTo("503");
    assertThat(attempts.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(attempts.get(1).getAttributes().get(FALLBACK_FROM)).isEqualTo("primary");
    assertThat(attempts).extracting(span -> span.getAttributes().get(BREAKER_STATE))
        .containsExactly("closed", "closed");
    assertThat(attempts.get(1).getAttributes().get(GEN_AI_REQUEST_MODEL)).isEqualTo("gpt-4o-mini");
    assertThat(capture.value(TelemetryNames.FALLBACKS_METRIC,
        Attributes.of(FALLBACK_FROM, "primary", FALLBACK_TO, "backup"))).contains(1.0);
    assertThat(capture.value(TelemetryNames.BREAKER_TRANSITIONS_METRIC,
        Attributes.of(PROVIDER, "primary", BREAKER_STATE, "open"))).contains(1.0);
  }

  @Test
  void aProbeIsAHalfOpenAttemptAndItsSuccessClosesTheBreakerOnTheCallsSpan() throws Exception {
    java.util.concurrent.atomic.AtomicReference<java.time.Instant> now =
        new java.util.concurrent.atomic.AtomicReference<>(java.time.Instant.parse("2030-01-01T00:00:00Z"));
    java.time.Clock clock = new java.time.Clock() {
      @Override
      public java.time.Instant instant() {
        return now.get();
      }

      @Override
      public java.time.ZoneId getZone() {
        return java.time.ZoneOffset.UTC;
      }

      @Override
      public java.time.Clock withZone(java.time.ZoneId zone) {
        throw new UnsupportedOperationException();
      }
    };
    primary.script().next(1, Fault.status(503));
    try (Gate gate = Gate.builder(config("""
        tollgate:
          breaker:
            failures: 1
            open-for: 30s
          providers:
            primary:
              base-url: %s
              fallbacks: [backup]
            backup:
              base-url: %s
              api-key: ${BACKUP_KEY}
        """.formatted(primary.baseUrl(), backup.baseUrl()), Map.of("BACKUP_KEY", BACKUP_KEY)))
        .clock(clock).openTelemetry(capture.sdk()).build()) {
      call(gate);                                   // opens the primary's breaker
      capture.reset();
      now.set(now.get().plusSeconds(30));           // its open time ends
      assertThat(call(gate).provider()).isEqualTo("primary");
      assertThat(capture.value(TelemetryNames.BREAKER_STATE_METRIC, Attributes.of(PROVIDER, "primary")))
          .contains(0.0);
    }

    SpanData call = capture.span(TelemetryNames.CALL_SPAN);
    assertThat(call.getAttributes().get(DECISION)).isEqualTo("allowed");
    assertThat(capture.span(TelemetryNames.ATTEMPT_SPAN).getAttributes().get(BREAKER_STATE))
        .isEqualTo("half_open");
    assertThat(call.getEvents()).extracting(EventData::getName, EventData::getAttributes).containsExactly(
        org.assertj.core.groups.Tuple.tuple(TelemetryNames.BREAKER_TRANSITION_EVENT, Attributes.of(
            PROVIDER, "primary", BREAKER_PREVIOUS_STATE, "open", BREAKER_STATE, "half_open",
            BREAKER_REASON, "open_time_ended")),
        org.assertj.core.groups.Tuple.tuple(TelemetryNames.BREAKER_TRANSITION_EVENT, Attributes.of(
            PROVIDER, "primary", BREAKER_PREVIOUS_STATE, "half_open", BREAKER_STATE, "closed",
            BREAKER_REASON, "probe_succeeded")));
    assertThat(capture.value(TelemetryNames.BREAKER_TRANSITIONS_METRIC,
        Attributes.of(PROVIDER, "primary", BREAKER_STATE, "closed"))).contains(1.0);
  }

  @Test
  void aWaitIsAnEventAndTheTimeWaited() throws Exception {
    try (Gate gate = Gate.builder(config("""
        tollgate:
          on-limit: wait
          max-wait: 5s
          providers:
            primary:
              base-url: %s
              limits: { requests-per-second: 1 }
        """.formatted(primary.baseUrl()), Map.of())).openTelemetry(capture.sdk()).build()) {
      call(gate);
      capture.reset();
      assertThat(status(call(gate))).isEqualTo(200);
    }
    SpanData call = capture.span(TelemetryNames.CALL_SPAN);
    assertThat(call.getAttributes().get(DECISION)).isEqualTo("allowed");
    List<EventData> waits = call.getEvents().stream()
        .filter(event -> event.getName().equals(TelemetryNames.WAIT_EVENT)).toList();
    assertThat(waits).isNotEmpty();
    long waited = waits.stream().mapToLong(event -> event.getAttributes().get(WAIT_MS)).sum();
    assertThat(waited).isBetween(1L, 5000L);
    assertThat(call.getAttributes().get(WAIT_MS)).isEqualTo(waited);
    assertThat(call.getEvents()).filteredOn(event -> event.getName().equals(TelemetryNames.SKIPPED_EVENT))
        .allSatisfy(event -> assertThat(event.getAttributes().get(LIMIT)).isEqualTo("provider:requests-per-second"));
  }

  @Test
  void aDecisionWithoutRedisIsMarkedDegradedAndTheDegradedTimeCounted() throws Exception {
    RedisServer redis = RedisServer.start();
    try (Gate gate = Gate.builder(config("""
        tollgate:
          redis:
            url: %s
            on-failure: fail-open
          providers:
            primary:
              base-url: %s
              limits: { requests-per-hour: 10 }
        """.formatted(redis.uri(), primary.baseUrl()), Map.of())).openTelemetry(capture.sdk()).build()) {
      call(gate);
      assertThat(capture.span(TelemetryNames.CALL_SPAN).getAttributes().get(DEGRADED)).isFalse();
      assertThat(capture.value(TelemetryNames.LIMITER_DEGRADED_METRIC, Attributes.empty())).contains(0.0);
      redis.stop();
      capture.reset();

      call(gate); // the first failure: Redis's breaker needs two to open
      capture.reset();
      assertThat(status(call(gate))).isEqualTo(200);

      SpanData call = capture.span(TelemetryNames.CALL_SPAN);
      assertThat(call.getAttributes().get(DEGRADED)).isTrue();
      assertThat(call.getAttributes().get(DECISION)).isEqualTo("allowed");
      assertThat(capture.value(TelemetryNames.LIMITER_DEGRADED_METRIC, Attributes.empty())).contains(1.0);
      assertThat(capture.value(TelemetryNames.LIMITER_DURATION_METRIC,
          Attributes.of(PROVIDER, "primary", DEGRADED, true))).contains(2.0);
      assertThat(capture.value(TelemetryNames.LIMITER_DEGRADED_TIME_METRIC, Attributes.empty()))
          .hasValueSatisfying(seconds -> assertThat(seconds).isPositive());
      // Redis down is not a busy pool
      assertThat(capture.value(TelemetryNames.REDIS_POOL_EXHAUSTED_METRIC, Attributes.empty())).contains(0.0);
    } finally {
      redis.close();
    }
  }

  @Test
  void withRedisTheCallSpanEndsWithItsUsageWhenTheBodyEndsAndTheSettleLandsAfter() throws Exception {
    RedisServer redis = RedisServer.start();
    try (Gate gate = Gate.builder(config("""
        tollgate:
          redis:
            url: %s
          providers:
            primary:
              base-url: %s
              limits: { tokens-per-day: 10000 }
        """.formatted(redis.uri(), primary.baseUrl()), Map.of())).openTelemetry(capture.sdk()).build()) {
      call(gate);

      // recorded on the thread that read the body, before the settle thread was waited for
      SpanData call = capture.span(TelemetryNames.CALL_SPAN);
      assertThat(call.hasEnded()).isTrue();
      assertThat(call.getAttributes().get(TOKENS_SETTLED)).isEqualTo(120L);
      assertThat(call.getAttributes().get(GEN_AI_USAGE_INPUT_TOKENS)).isEqualTo(100L);
      assertThat(call.getAttributes().get(GEN_AI_USAGE_OUTPUT_TOKENS)).isEqualTo(20L);
      assertThat(capture.value(TelemetryNames.TOKENS_USED_METRIC,
          Attributes.of(PROVIDER, "primary", GEN_AI_TOKEN_TYPE, "output"))).contains(20.0);
      assertThat(gate.awaitSettled(Duration.ofSeconds(30))).isTrue();
      Limits limits = gate.config().provider("primary").orElseThrow().limits().toLimits();
      assertThat(gate.limiter().reserve(Subject.of("provider", "primary"), limits, 0, 1)
          .remainingTokens()).isEqualTo(10_000 - 120 - 1);
    } finally {
      redis.close();
    }
  }

  @Test
  void noAttributeEverHoldsAnApiKeyOrARawTenantId() throws Exception {
    primary.script().next(1, Fault.status(503));
    try (Gate gate = gate("", "requests-per-hour: 2")) {
      call(gate);                   // fallback, with the backup's key
      call(gate);                   // primary open: backup again
      call(gate);
    }
    assertThat(capture.spans()).isNotEmpty();
    assertThat(capture.everyAttributeValue())
        .noneMatch(value -> value.contains(APP_KEY) || value.contains(BACKUP_KEY)
            || value.contains(TENANT) || value.contains("Say hello"));
  }

  /** The JDK client, noting which span was current while each request was sent. */
  private static final class SpanNotingTransport implements Transport<HttpResponse<InputStream>> {
    // generous: the first call of a cold JVM on a loaded machine is slow, and no test here times out
    private final JdkTransport jdk = new JdkTransport(Duration.ofSeconds(10));
    private final List<String> sentUnder = new java.util.ArrayList<>();

    @Override
    public HttpResponse<InputStream> send(io.tollgate.router.OutboundRequest request)
        throws java.io.IOException {
      sentUnder.add(Span.current().getSpanContext().getSpanId());
      return jdk.send(request);
    }

    @Override
    public int status(HttpResponse<InputStream> response) {
      return jdk.status(response);
    }

    @Override
    public io.tollgate.llm.Headers headers(HttpResponse<InputStream> response) {
      return jdk.headers(response);
    }

    @Override
    public void discard(HttpResponse<InputStream> response) {
      jdk.discard(response);
    }

    List<String> sentUnder() {
      return sentUnder;
    }
  }
}
