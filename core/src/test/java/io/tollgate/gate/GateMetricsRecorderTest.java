package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.tollgate.limiter.LimiterHealth;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.TokenCounter;
import io.tollgate.telemetry.MetricsRecorder;
import io.tollgate.telemetry.Telemetry;
import io.tollgate.telemetry.TelemetryCapture;
import io.tollgate.telemetry.TelemetryNames;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A front end's {@link MetricsRecorder} ({@link Telemetry#withMetrics}) takes every measurement of
 * a real gate instead of the OpenTelemetry meter, which gets none, while the spans still go to
 * OpenTelemetry; and it records with no OpenTelemetry there at all.
 */
class GateMetricsRecorderTest {

  private final TelemetryCapture capture = new TelemetryCapture();
  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(10));
  private final NotingRecorder recorder = new NotingRecorder();
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
    GlobalOpenTelemetry.resetForTest();
  }

  @Test
  void theRecorderTakesEveryMeasurementInsteadOfTheMeterAndSpansStayOpenTelemetrys() throws Exception {
    primary.script().next(1, Fault.status(503));
    try (Gate gate = gate(capture.telemetry().withMetrics(recorder), "requests-per-hour: 2")) {
      assertThat(recorder.breakerStates()).containsExactly(Map.entry("backup", 0L), Map.entry("primary", 0L));

      assertThat(call(gate)).isEqualTo(200); // primary answers 503 and opens: the backup answers
      assertThat(call(gate)).isEqualTo(200); // primary open: the backup again
      assertThat(call(gate)).isEqualTo(503); // primary open; the backup's 2 per hour, known spent, not tried

      assertThat(recorder.breakerStates()).containsExactly(Map.entry("backup", 0L), Map.entry("primary", 2L));
    }

    assertThat(recorder.measurements()).containsExactly(
        "limiterDuration primary degraded=false",
        "tokensReserved primary " + estimate,
        "breakerTransition primary open",
        "limiterDuration backup degraded=false",
        "tokensReserved backup " + estimate,
        "fallback primary->backup",
        "decision fallback outbound backup",
        "tokensUsed backup 100/20",
        "limiterDuration backup degraded=false",
        "tokensReserved backup " + estimate,
        "fallback primary->backup",
        "decision fallback outbound backup",
        "tokensUsed backup 100/20",
        "decision unavailable outbound primary");
    assertThat(recorder.breakerStates()).isEmpty(); // the gate's close ended the state reporting
    assertThat(capture.metrics()).isEmpty();
    assertThat(capture.spans(TelemetryNames.CALL_SPAN)).hasSize(3);
    assertThat(capture.spans(TelemetryNames.ATTEMPT_SPAN)).hasSize(3);
  }

  @Test
  void withNoOpenTelemetrySetTheRecorderStillTakesTheMeasurementsAndTheLimiter() throws Exception {
    RedisServer redis = RedisServer.start();
    try (Gate gate = Gate.builder(config("""
        tollgate:
          redis:
            url: %s
          providers:
            primary:
              base-url: %s
              limits: { requests-per-hour: 1 }
        """.formatted(redis.uri(), primary.baseUrl()), Map.of()))
        .telemetry(Telemetry.global().withMetrics(recorder)).build()) {
      assertThat(recorder.limiters()).singleElement().satisfies(limiter ->
          assertThat(limiter.isDegraded()).isFalse());

      assertThat(call(gate)).isEqualTo(200);
      assertThat(call(gate)).isEqualTo(429);
    } finally {
      redis.close();
    }

    assertThat(GlobalOpenTelemetry.isSet()).isFalse(); // asking did not set it
    assertThat(recorder.measurements()).containsExactly(
        "limiterDuration primary degraded=false",
        "tokensReserved primary " + estimate,
        "decision allowed outbound primary",
        "tokensUsed primary 100/20",
        "limiterDuration primary degraded=false",
        "decision denied outbound primary");
    assertThat(recorder.limiters()).isEmpty();
  }

  private Gate gate(Telemetry telemetry, String backupLimits) {
    return Gate.builder(config("""
        tollgate:
          breaker:
            failures: 1
            open-for: 30s
          providers:
            primary:
              base-url: %s
              limits: { requests-per-hour: 10 }
              fallbacks: [backup]
            backup:
              base-url: %s
              api-key: sk-backup
              limits: { %s }
        """.formatted(primary.baseUrl(), backup.baseUrl(), backupLimits), Map.of()))
        .telemetry(telemetry).build();
  }

  private int call(Gate gate) throws Exception {
    CallResult<HttpResponse<InputStream>> result = gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);
    if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
      readBody(result);
    }
    return status(result);
  }

  /** Notes each measurement as a line, and reads the watched gauges back. */
  private static final class NotingRecorder implements MetricsRecorder {
    private final List<String> measurements = new CopyOnWriteArrayList<>();
    private final Map<String, LongSupplier> breakerStates = new ConcurrentHashMap<>();
    private final List<LimiterHealth> limiters = new CopyOnWriteArrayList<>();

    @Override
    public void decision(String decision, String direction, String provider) {
      measurements.add("decision " + decision + " " + direction + " " + provider);
    }

    @Override
    public void limiterDuration(long nanos, String provider, boolean degraded) {
      assertThat(nanos).isPositive();
      measurements.add("limiterDuration " + provider + " degraded=" + degraded);
    }

    @Override
    public void tokensReserved(String provider, long tokens) {
      measurements.add("tokensReserved " + provider + " " + tokens);
    }

    @Override
    public void tokensUsed(String provider, long input, long output) {
      measurements.add("tokensUsed " + provider + " " + input + "/" + output);
    }

    @Override
    public void fallback(String from, String to) {
      measurements.add("fallback " + from + "->" + to);
    }

    @Override
    public void breakerTransition(String provider, String state) {
      measurements.add("breakerTransition " + provider + " " + state);
    }

    @Override
    public AutoCloseable breakerState(String provider, LongSupplier state) {
      assertThat(breakerStates.putIfAbsent(provider, state)).isNull();
      return () -> breakerStates.remove(provider);
    }

    @Override
    public AutoCloseable limiterDegraded(LimiterHealth limiter) {
      limiters.add(limiter);
      return () -> limiters.remove(limiter);
    }

    List<String> measurements() {
      return measurements;
    }

    Map<String, Long> breakerStates() {
      return new java.util.TreeMap<>(breakerStates.entrySet().stream().collect(
          java.util.stream.Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().getAsLong())));
    }

    List<LimiterHealth> limiters() {
      return limiters;
    }
  }
}
