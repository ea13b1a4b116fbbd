package io.tollgate.agent.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterBuilder;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.ContextPropagators;

/**
 * The agent's (relocated) OpenTelemetry API, recording into the app's own {@code OpenTelemetry}
 * (its {@code GlobalOpenTelemetry}, or the OpenTelemetry Java agent's): every span and metric
 * Tollgate records is made by the app's SDK, exported by the app's exporter, in the app's traces.
 * Bridged is the part of the API Tollgate uses (docs/telemetry.md, "The agent"); what it does not
 * use records nothing.
 */
final class BridgedOpenTelemetry implements OpenTelemetry {

  private final AppApi api;
  private final Object app;

  BridgedOpenTelemetry(AppApi api, Object app) {
    this.api = api;
    this.app = app;
  }

  AppApi api() {
    return api;
  }

  /** Whose API it is, for the log: {@code the app's}, {@code the OpenTelemetry Java agent's}. */
  String origin() {
    return api.origin;
  }

  @Override
  public TracerProvider getTracerProvider() {
    return new TracerProvider() {
      @Override
      public Tracer get(String scope) {
        return tracer(scope);
      }

      @Override
      public Tracer get(String scope, String version) {
        return tracer(scope);
      }
    };
  }

  @Override
  public MeterProvider getMeterProvider() {
    return scope -> new MeterBuilder() {
      @Override
      public MeterBuilder setSchemaUrl(String schemaUrl) {
        return this;
      }

      @Override
      public MeterBuilder setInstrumentationVersion(String version) {
        return this;
      }

      @Override
      public Meter build() {
        return meter(scope);
      }
    };
  }

  @Override
  public Tracer getTracer(String scope) {
    return tracer(scope);
  }

  @Override
  public Meter getMeter(String scope) {
    return meter(scope);
  }

  @Override
  public ContextPropagators getPropagators() {
    return ContextPropagators.noop();
  }

  private Tracer tracer(String scope) {
    try {
      Object tracer = api.getTracer.invoke(app, scope);
      return name -> BridgedSpan.builder(api, tracer, name);
    } catch (Throwable e) {
      return TracerProvider.noop().get(scope);
    }
  }

  private Meter meter(String scope) {
    try {
      return new BridgedMeter(api, api.getMeter.invoke(app, scope));
    } catch (Throwable e) {
      return MeterProvider.noop().get(scope);
    }
  }
}
