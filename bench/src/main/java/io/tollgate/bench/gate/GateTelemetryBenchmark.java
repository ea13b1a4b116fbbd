package io.tollgate.bench.gate;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.gate.Transport;
import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import io.tollgate.telemetry.Telemetry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What telemetry adds to one call through the gate: in-memory limits, a transport that answers at
 * once with a small JSON completion, the body fed to the usage tap so the call settles (and its
 * span ends). {@code none}: {@link Telemetry#noop()}; {@code global-unset}: {@link
 * Telemetry#global()} with no {@code GlobalOpenTelemetry} set (the default in an app without
 * OpenTelemetry); {@code sdk}: an SDK with a batch span processor and a metric reader whose
 * exporters drop everything.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GateTelemetryBenchmark {

  private static final byte[] BODY = ("{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"gpt-4o\","
      + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},"
      + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1,"
      + "\"total_tokens\":10}}").getBytes(StandardCharsets.UTF_8);
  private static final Headers JSON = Headers.of("content-type", "application/json");

  @Param({"none", "global-unset", "sdk"})
  public String telemetry;

  private Gate gate;
  private OpenTelemetrySdk sdk;
  private OutboundRequest request;
  private final Transport<byte[]> transport = new Transport<>() {
    @Override
    public byte[] send(OutboundRequest request) {
      return BODY;
    }

    @Override
    public int status(byte[] response) {
      return 200;
    }

    @Override
    public Headers headers(byte[] response) {
      return JSON;
    }

    @Override
    public void discard(byte[] response) {}
  };

  @Setup
  public void setUp() {
    TollgateConfig config = TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml("""
        tollgate:
          providers:
            openai:
              base-url: http://127.0.0.1:9
              limits:
                requests-per-second: 1000000000
                tokens-per-second: 1000000000
        """);
    Gate.Builder builder = Gate.builder(config);
    switch (telemetry) {
      case "none" -> builder.telemetry(Telemetry.noop());
      case "global-unset" -> builder.telemetry(Telemetry.global());
      default -> {
        sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(BatchSpanProcessor.builder(new DroppingSpans()).build()).build())
            .setMeterProvider(SdkMeterProvider.builder()
                .registerMetricReader(PeriodicMetricReader.builder(new DroppingMetrics())
                    .setInterval(Duration.ofSeconds(1)).build()).build())
            .build();
        builder.openTelemetry(sdk);
      }
    }
    gate = builder.build();
    request = OutboundRequest.of("POST", URI.create("http://127.0.0.1:9/v1/chat/completions"),
        Headers.of("content-type", "application/json"),
        "{\"model\":\"gpt-4o\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}"
            .getBytes(StandardCharsets.UTF_8));
  }

  @TearDown
  public void tearDown() {
    gate.close();
    if (sdk != null) {
      sdk.close();
    }
  }

  @Benchmark
  public Object call() throws Exception {
    CallResult<byte[]> result = gate.call(request, true, transport);
    CallResult.Forwarded<byte[]> forwarded = (CallResult.Forwarded<byte[]>) result;
    forwarded.usage().onBytes(BODY, 0, BODY.length);
    forwarded.usage().onEnd();
    return result;
  }

  private static final class DroppingSpans implements SpanExporter {
    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }

  private static final class DroppingMetrics implements MetricExporter {
    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType type) {
      return AggregationTemporality.CUMULATIVE;
    }

    @Override
    public CompletableResultCode export(Collection<MetricData> metrics) {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
