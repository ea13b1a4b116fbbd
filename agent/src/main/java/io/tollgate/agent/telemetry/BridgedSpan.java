package io.tollgate.agent.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import java.util.concurrent.TimeUnit;

/**
 * A span of the app's SDK behind the agent's relocated {@link Span}: each call goes to the app's
 * span. A failing call is dropped: telemetry never fails an LLM call.
 */
final class BridgedSpan implements Span {

  private final AppApi api;
  /** The app's span. */
  final Object app;
  private volatile SpanContext spanContext;

  private BridgedSpan(AppApi api, Object app) {
    this.api = api;
    this.app = app;
  }

  /** A builder of a span named {@code name} by the app's {@code tracer}. */
  static SpanBuilder builder(AppApi api, Object tracer, String name) {
    try {
      return new Builder(api, api.spanBuilder.invoke(tracer, name));
    } catch (Throwable e) {
      return TracerProvider.noop().get("io.tollgate").spanBuilder(name);
    }
  }

  @Override
  public <T> Span setAttribute(AttributeKey<T> key, T value) {
    if (key != null && value != null) {
      try {
        api.spanSetAttribute.invoke(app, api.key(key), (Object) value);
      } catch (Throwable dropped) {
        // the attribute is lost, the call goes on
      }
    }
    return this;
  }

  @Override
  public Span addEvent(String name, Attributes attributes) {
    try {
      api.addEvent.invoke(app, name, api.attributes(attributes));
    } catch (Throwable dropped) {
      // the event is lost, the call goes on
    }
    return this;
  }

  @Override
  public Span addEvent(String name, Attributes attributes, long timestamp, TimeUnit unit) {
    try {
      api.addEventAt.invoke(app, name, api.attributes(attributes), timestamp, unit);
    } catch (Throwable dropped) {
      // the event is lost, the call goes on
    }
    return this;
  }

  @Override
  public Span setStatus(StatusCode status, String description) {
    try {
      api.setStatus.invoke(app, api.statusCode(status), description == null ? "" : description);
    } catch (Throwable dropped) {
      // the status is lost, the call goes on
    }
    return this;
  }

  @Override
  public Span recordException(Throwable exception, Attributes attributes) {
    try {
      api.recordException.invoke(app, exception, api.attributes(attributes));
    } catch (Throwable dropped) {
      // the exception event is lost, the call goes on
    }
    return this;
  }

  @Override
  public Span updateName(String name) {
    try {
      api.updateName.invoke(app, name);
    } catch (Throwable dropped) {
      // the name stays
    }
    return this;
  }

  @Override
  public void end() {
    try {
      api.end.invoke(app);
    } catch (Throwable dropped) {
      // an unended span is never exported; nothing else to do
    }
  }

  @Override
  public void end(long timestamp, TimeUnit unit) {
    try {
      api.endAt.invoke(app, timestamp, unit);
    } catch (Throwable dropped) {
      // as above
    }
  }

  @Override
  public SpanContext getSpanContext() {
    SpanContext known = spanContext;
    if (known == null) {
      try {
        Object theirs = api.getSpanContext.invoke(app);
        byte flags = (byte) api.flagsByte.invoke(api.traceFlags.invoke(theirs));
        known = SpanContext.create((String) api.traceId.invoke(theirs),
            (String) api.spanId.invoke(theirs), TraceFlags.fromByte(flags), TraceState.getDefault());
      } catch (Throwable e) {
        known = SpanContext.getInvalid();
      }
      spanContext = known;
    }
    return known;
  }

  @Override
  public boolean isRecording() {
    try {
      return (boolean) api.isRecording.invoke(app);
    } catch (Throwable e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return "BridgedSpan{" + app + "}";
  }

  /** The app's span builder behind the agent's relocated one. */
  private static final class Builder implements SpanBuilder {
    private final AppApi api;
    private final Object app;

    Builder(AppApi api, Object app) {
      this.api = api;
      this.app = app;
    }

    private SpanBuilder call(Step step) {
      try {
        step.run();
      } catch (Throwable dropped) {
        // the setting is lost, the span is still made
      }
      return this;
    }

    @Override
    public SpanBuilder setParent(Context context) {
      return call(() -> api.setParent.invoke(app, BridgedContextLink.appContext(api, context)));
    }

    @Override
    public SpanBuilder setNoParent() {
      return call(() -> api.setNoParent.invoke(app));
    }

    @Override
    public SpanBuilder addLink(SpanContext spanContext) {
      return this; // Tollgate links no spans
    }

    @Override
    public SpanBuilder addLink(SpanContext spanContext, Attributes attributes) {
      return this; // Tollgate links no spans
    }

    @Override
    public SpanBuilder setAttribute(String key, String value) {
      return setAttribute(AttributeKey.stringKey(key), value);
    }

    @Override
    public SpanBuilder setAttribute(String key, long value) {
      return setAttribute(AttributeKey.longKey(key), value);
    }

    @Override
    public SpanBuilder setAttribute(String key, double value) {
      return setAttribute(AttributeKey.doubleKey(key), value);
    }

    @Override
    public SpanBuilder setAttribute(String key, boolean value) {
      return setAttribute(AttributeKey.booleanKey(key), value);
    }

    @Override
    public <T> SpanBuilder setAttribute(AttributeKey<T> key, T value) {
      if (key == null || value == null) {
        return this;
      }
      return call(() -> api.builderSetAttribute.invoke(app, api.key(key), (Object) value));
    }

    @Override
    public SpanBuilder setSpanKind(SpanKind kind) {
      return call(() -> api.setSpanKind.invoke(app, api.spanKind(kind)));
    }

    @Override
    public SpanBuilder setStartTimestamp(long timestamp, TimeUnit unit) {
      return call(() -> api.setStartTimestamp.invoke(app, timestamp, unit));
    }

    @Override
    public Span startSpan() {
      try {
        return new BridgedSpan(api, api.startSpan.invoke(app));
      } catch (Throwable e) {
        return Span.getInvalid();
      }
    }

    private interface Step {
      void run() throws Throwable;
    }
  }
}
