package io.tollgate.agent.telemetry;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * Keeps the OpenTelemetry Java agent from tracing the agent's own OTLP exports. The agent's
 * exporter sends through the JDK's {@code HttpClient}, which the OpenTelemetry agent instruments;
 * the exporter asks for suppression, but in the relocated API, which the OpenTelemetry agent does
 * not see. So every export runs inside the OpenTelemetry agent's own
 * {@code InstrumentationUtil.suppressInstrumentation} (on the boot class path) once that agent is
 * there; it is looked for at each export until found, since it may attach after Tollgate.
 */
final class UntracedExport {

  /** Found at the first export after the OpenTelemetry agent has started (it may start after us). */
  private volatile MethodHandle suppress;

  UntracedExport() {}

  private static MethodHandle find() {
    String name = String.join(".", "io", "opentelemetry", "javaagent", "shaded", "io",
        "opentelemetry", "api", "internal", "InstrumentationUtil");
    try {
      Class<?> util = Class.forName(name, false, null);
      return MethodHandles.publicLookup().findStatic(util,
          "suppressInstrumentation", MethodType.methodType(void.class, Runnable.class));
    } catch (ReflectiveOperationException | LinkageError e) {
      return null;
    }
  }

  <T> T run(Supplier<T> export) {
    MethodHandle handle = suppress;
    if (handle == null) {
      handle = find();
      suppress = handle;
    }
    if (handle == null) {
      return export.get();
    }
    Object[] result = new Object[1];
    try {
      handle.invoke((Runnable) () -> result[0] = export.get());
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
    @SuppressWarnings("unchecked")
    T typed = (T) result[0];
    return typed;
  }

  SpanExporter wrap(SpanExporter exporter) {
    return new SpanExporter() {
      @Override
      public CompletableResultCode export(Collection<SpanData> spans) {
        return run(() -> exporter.export(spans));
      }

      @Override
      public CompletableResultCode flush() {
        return run(exporter::flush);
      }

      @Override
      public CompletableResultCode shutdown() {
        return run(exporter::shutdown);
      }
    };
  }

  MetricExporter wrap(MetricExporter exporter) {
    return new MetricExporter() {
      @Override
      public CompletableResultCode export(Collection<MetricData> metrics) {
        return run(() -> exporter.export(metrics));
      }

      @Override
      public CompletableResultCode flush() {
        return run(exporter::flush);
      }

      @Override
      public CompletableResultCode shutdown() {
        return run(exporter::shutdown);
      }

      @Override
      public AggregationTemporality getAggregationTemporality(InstrumentType type) {
        return exporter.getAggregationTemporality(type);
      }

      @Override
      public Aggregation getDefaultAggregation(InstrumentType type) {
        return exporter.getDefaultAggregation(type);
      }

      @Override
      public MemoryMode getMemoryMode() {
        return exporter.getMemoryMode();
      }
    };
  }
}
