package io.tollgate.telemetry;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** An OpenTelemetry SDK whose spans and metrics stay in memory for a test to read. */
public final class TelemetryCapture implements AutoCloseable {

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
  private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
      .setTracerProvider(SdkTracerProvider.builder()
          .addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
      .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
      .build();

  public OpenTelemetrySdk sdk() {
    return sdk;
  }

  public Telemetry telemetry() {
    return Telemetry.of(sdk);
  }

  /** Every span ended so far. */
  public List<SpanData> spans() {
    return spans.getFinishedSpanItems();
  }

  public List<SpanData> spans(String name) {
    return spans().stream().filter(span -> span.getName().equals(name)).toList();
  }

  /** The one span of that name. */
  public SpanData span(String name) {
    List<SpanData> found = spans(name);
    if (found.size() != 1) {
      throw new AssertionError("expected one " + name + " span, found " + spans());
    }
    return found.get(0);
  }

  public void reset() {
    spans.reset();
  }

  /** Collects the metrics now (cumulative since the start). */
  public Collection<MetricData> metrics() {
    return metrics.collectAllMetrics();
  }

  /** The value of {@code name}'s point with exactly {@code attributes}, if there is one. */
  public Optional<Double> value(String name, Attributes attributes) {
    for (MetricData metric : metrics()) {
      if (!metric.getName().equals(name)) {
        continue;
      }
      for (PointData point : metric.getData().getPoints()) {
        if (point.getAttributes().equals(attributes)) {
          if (point instanceof LongPointData longPoint) {
            return Optional.of((double) longPoint.getValue());
          } else if (point instanceof DoublePointData doublePoint) {
            return Optional.of(doublePoint.getValue());
          } else if (point instanceof io.opentelemetry.sdk.metrics.data.HistogramPointData histogram) {
            return Optional.of((double) histogram.getCount());
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Every attribute value of every span, event and metric point, as text: for leak checks. */
  public List<String> everyAttributeValue() {
    List<String> values = new ArrayList<>();
    for (SpanData span : spans()) {
      values.add(span.getName());
      span.getAttributes().forEach((key, value) -> values.add(key.getKey() + "=" + value));
      for (EventData event : span.getEvents()) {
        values.add(event.getName());
        event.getAttributes().forEach((key, value) -> values.add(key.getKey() + "=" + value));
      }
      values.add(String.valueOf(span.getStatus().getDescription()));
    }
    for (MetricData metric : metrics()) {
      for (PointData point : metric.getData().getPoints()) {
        point.getAttributes().forEach((key, value) -> values.add(key.getKey() + "=" + value));
      }
    }
    return values;
  }

  @Override
  public void close() {
    sdk.close();
  }
}
