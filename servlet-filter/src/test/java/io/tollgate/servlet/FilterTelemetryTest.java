package io.tollgate.servlet;

import static io.tollgate.telemetry.TollgateAttributes.DECISION;
import static io.tollgate.telemetry.TollgateAttributes.DEGRADED;
import static io.tollgate.telemetry.TollgateAttributes.DIRECTION;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_REQUEST_MODEL;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_RESPONSE_MODEL;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_USAGE_INPUT_TOKENS;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_USAGE_OUTPUT_TOKENS;
import static io.tollgate.telemetry.TollgateAttributes.HTTP_RESPONSE_STATUS_CODE;
import static io.tollgate.telemetry.TollgateAttributes.LIMIT;
import static io.tollgate.telemetry.TollgateAttributes.MODE;
import static io.tollgate.telemetry.TollgateAttributes.TENANT_HASH;
import static io.tollgate.telemetry.TollgateAttributes.TOKENS_RESERVED;
import static io.tollgate.telemetry.TollgateAttributes.TOKENS_SETTLED;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.TokenCounter;
import io.tollgate.telemetry.TelemetryNames;
import io.tollgate.testkit.redis.RedisServer;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The filter's tollgate.inbound spans and decision metrics, read back from an in-memory SDK. */
class FilterTelemetryTest {

  /** The figures below are the tokenizer's own: counted once its encodings are loaded. */
  @BeforeAll
  static void encodingsLoaded() {
    TokenCounter.awaitLoaded(Duration.ofSeconds(30));
  }


  private static final String TENANT = "tenant-raw-id-initech";
  private static final String API_KEY = "sk-inbound-secret-8d41";

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
  private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
      .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
      .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
      .build();

  @AfterEach
  void close() {
    sdk.close();
  }

  /** The chat endpoint, answering with the id of the span current while it ran. */
  public static final class SpanReportingChatServlet extends ChatServlet {
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      resp.setHeader("x-current-span", Span.current().getSpanContext().getSpanId());
      super.service(req, resp);
    }
  }

  private static TollgateConfig config(String yaml) {
    return TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml(yaml);
  }

  private static final String LIMITED = """
      tollgate:
        %s
        tenants:
          %s
          limits:
            requests-per-hour: 2
            tokens-per-day: 10000
      """;

  private final class App implements AutoCloseable {
    final Server server = new Server();
    final URI base;

    App(String mode, String tenantSource) throws Exception {
      TollgateFilter filter = TollgateFilter.builder(config(LIMITED.formatted(mode, tenantSource)))
          .openTelemetry(sdk).build();
      ServerConnector connector = new ServerConnector(server);
      connector.setHost("127.0.0.1");
      server.addConnector(connector);
      ServletContextHandler context = new ServletContextHandler();
      context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(SpanReportingChatServlet.class, "/*");
      server.setHandler(context);
      server.start();
      base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    HttpResponse<String> chat(String header, String value) {
      return Http.send(Http.json(base.resolve(FilterContract.CHAT), FilterContract.CHAT_BODY)
          .header(header, value));
    }

    @Override
    public void close() throws Exception {
      server.stop();
    }
  }

  private List<SpanData> inbound() {
    return spans.getFinishedSpanItems().stream()
        .filter(span -> span.getName().equals(TelemetryNames.INBOUND_SPAN)).toList();
  }

  /**
   * The inbound spans once there are {@code count}: a span the filter ends after the app returns
   * may end just after the client has its answer.
   */
  private List<SpanData> inbound(int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (inbound().size() < count && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      Thread.sleep(5);
    }
    assertThat(inbound()).hasSize(count);
    return inbound();
  }

  private long decisions(String decision) {
    for (MetricData metric : metrics.collectAllMetrics()) {
      if (metric.getName().equals(TelemetryNames.DECISIONS_METRIC)) {
        for (var point : metric.getLongSumData().getPoints()) {
          if (point.getAttributes().equals(Attributes.of(DECISION, decision, DIRECTION, "inbound"))) {
            return ((LongPointData) point).getValue();
          }
        }
      }
    }
    return 0;
  }

  @Test
  void anAdmittedRequestIsOneSpanSettledWithItsUsageAndCurrentWhileTheAppRuns() throws Exception {
    HttpResponse<String> response;
    try (App app = new App("", "header: X-Tenant-Id")) {
      response = app.chat("X-Tenant-Id", TENANT);
    }
    assertThat(response.statusCode()).isEqualTo(200);
    SpanData span = inbound(1).get(0);
    assertThat(span.getAttributes().asMap()).isEqualTo(Attributes.builder()
        .put(MODE, "enforce")
        .put(TENANT_HASH, Subject.of("tenant", TENANT).idHash())
        .put(TOKENS_RESERVED, FilterContract.ESTIMATE)
        .put(GEN_AI_REQUEST_MODEL, "gpt-4o")
        .put(DECISION, "allowed")
        .put(DEGRADED, false)
        .put(TOKENS_SETTLED, 18L)
        .put(GEN_AI_USAGE_INPUT_TOKENS, 11L)
        .put(GEN_AI_USAGE_OUTPUT_TOKENS, 7L)
        .put(GEN_AI_RESPONSE_MODEL, "gpt-4o-2024-08-06")
        .put(HTTP_RESPONSE_STATUS_CODE, 200L)
        .build().asMap());
    assertThat(response.headers().firstValue("x-current-span")).contains(span.getSpanId());
    assertThat(decisions("allowed")).isEqualTo(1);
  }

  @Test
  void aRefusalNamesTheLimitThatRefused() throws Exception {
    try (App app = new App("", "header: X-Tenant-Id")) {
      app.chat("X-Tenant-Id", TENANT);
      app.chat("X-Tenant-Id", TENANT);
      spans.reset();
      assertThat(app.chat("X-Tenant-Id", TENANT).statusCode()).isEqualTo(429);
    }
    SpanData span = inbound(1).get(0);
    assertThat(span.getAttributes().get(DECISION)).isEqualTo("denied");
    assertThat(span.getAttributes().get(LIMIT)).isEqualTo("inbound:requests-per-hour");
    assertThat(span.getAttributes().get(HTTP_RESPONSE_STATUS_CODE)).isEqualTo(429L);
    assertThat(span.getAttributes().get(TOKENS_SETTLED)).isNull();
    assertThat(decisions("allowed")).isEqualTo(2);
    assertThat(decisions("denied")).isEqualTo(1);
  }

  @Test
  void shadowModeReportsWhatItWouldHaveRefused() throws Exception {
    try (App app = new App("mode: shadow", "header: X-Tenant-Id")) {
      app.chat("X-Tenant-Id", TENANT);
      app.chat("X-Tenant-Id", TENANT);
      spans.reset();
      assertThat(app.chat("X-Tenant-Id", TENANT).statusCode()).isEqualTo(200);
    }
    SpanData span = inbound(1).get(0);
    assertThat(span.getAttributes().get(DECISION)).isEqualTo("shadow_denied");
    assertThat(span.getAttributes().get(MODE)).isEqualTo("shadow");
    assertThat(span.getAttributes().get(LIMIT)).isEqualTo("inbound:requests-per-hour");
    assertThat(decisions("shadow_allowed")).isEqualTo(2);
    assertThat(decisions("shadow_denied")).isEqualTo(1);
  }

  @Test
  void aDecisionWithoutRedisIsMarkedDegraded() throws Exception {
    RedisServer redis = RedisServer.start();
    try (App app = new App("redis:\n    url: " + redis.uri() + "\n    on-failure: fail-open",
        "header: X-Tenant-Id")) {
      app.chat("X-Tenant-Id", TENANT);
      assertThat(inbound(1).get(0).getAttributes().get(DEGRADED)).isFalse();
      redis.stop();
      spans.reset();
      assertThat(app.chat("X-Tenant-Id", TENANT).statusCode()).isEqualTo(200);
      SpanData span = inbound(1).get(0);
      assertThat(span.getAttributes().get(DEGRADED)).isTrue();
      assertThat(span.getAttributes().get(DECISION)).isEqualTo("allowed");
      assertThat(span.getAttributes().get(TOKENS_SETTLED)).isEqualTo(18L);
    } finally {
      redis.close();
    }
  }

  @Test
  void noAttributeHoldsTheApiKeyTheRawTenantOrThePrompt() throws Exception {
    try (App byKey = new App("", "api-key-header: Authorization");
        App byHeader = new App("", "header: X-Tenant-Id")) {
      for (int i = 0; i < 3; i++) {
        byKey.chat("Authorization", "Bearer " + API_KEY);
        byHeader.chat("X-Tenant-Id", TENANT);
      }
    }
    List<String> values = new ArrayList<>();
    for (SpanData span : spans.getFinishedSpanItems()) {
      span.getAttributes().forEach((key, value) -> values.add(key.getKey() + "=" + value));
      span.getEvents().forEach(event ->
          event.getAttributes().forEach((key, value) -> values.add(key.getKey() + "=" + value)));
    }
    metrics.collectAllMetrics().forEach(metric -> metric.getData().getPoints().forEach(point ->
        point.getAttributes().forEach((key, value) -> values.add(key.getKey() + "=" + value))));
    inbound(6);
    assertThat(values).isNotEmpty().noneMatch(value -> value.contains(API_KEY)
        || value.contains(TENANT) || value.contains("Say hello"));
  }
}
