package io.tollgate.agent.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.tollgate.telemetry.GlobalState;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The app's own, unrelocated OpenTelemetry API (or the OpenTelemetry Java agent's copy on the boot
 * class path), reached through method handles found once: the part of it the agent's
 * {@link BridgedOpenTelemetry} records through. Every app object is an {@code Object} here; the
 * handles take and return them. Class names are assembled at run time, because the shade plugin
 * would relocate the literals.
 */
final class AppApi {

  private static final String API = String.join(".", "io", "opentelemetry", "api");
  private static final String CONTEXT = String.join(".", "io", "opentelemetry", "context");

  final String origin;
  // GlobalOpenTelemetry
  private final MethodHandle isSet;
  private final MethodHandle global;
  // OpenTelemetry, Tracer, SpanBuilder
  final MethodHandle getTracer;
  final MethodHandle getMeter;
  final MethodHandle spanBuilder;
  final MethodHandle setParent;
  final MethodHandle setNoParent;
  final MethodHandle setSpanKind;
  final MethodHandle builderSetAttribute;
  final MethodHandle setStartTimestamp;
  final MethodHandle startSpan;
  // Span, SpanContext
  final MethodHandle spanSetAttribute;
  final MethodHandle addEvent;
  final MethodHandle addEventAt;
  final MethodHandle setStatus;
  final MethodHandle recordException;
  final MethodHandle updateName;
  final MethodHandle end;
  final MethodHandle endAt;
  final MethodHandle getSpanContext;
  final MethodHandle isRecording;
  final MethodHandle traceId;
  final MethodHandle spanId;
  final MethodHandle traceFlags;
  final MethodHandle flagsByte;
  // Context
  final MethodHandle currentContext;
  final MethodHandle contextWith;
  final MethodHandle makeCurrent;
  final MethodHandle closeScope;
  // Attributes
  private final MethodHandle attributesBuilder;
  private final MethodHandle attributesPut;
  private final MethodHandle attributesBuild;
  private final Object emptyAttributes;
  private final Map<AttributeKey<?>, Object> keys = new ConcurrentHashMap<>();
  private final Map<String, MethodHandle> keyFactories;
  private final Class<?> spanKindClass;
  private final Class<?> statusCodeClass;
  // Meter and instruments
  final MethodHandle counterBuilder;
  final MethodHandle histogramBuilder;
  final MethodHandle gaugeBuilder;
  final MethodHandle longCounterDescription;
  final MethodHandle longCounterUnit;
  final MethodHandle longCounterBuild;
  final MethodHandle longCounterOfDoubles;
  final MethodHandle doubleCounterDescription;
  final MethodHandle doubleCounterUnit;
  final MethodHandle doubleCounterCallback;
  final MethodHandle doubleCounterBuild;
  final MethodHandle histogramDescription;
  final MethodHandle histogramUnit;
  /** Null in API versions before the advice was part of the stable API. */
  final MethodHandle histogramBuckets;
  final MethodHandle histogramBuild;
  final MethodHandle doubleGaugeDescription;
  final MethodHandle doubleGaugeUnit;
  final MethodHandle doubleGaugeOfLongs;
  final MethodHandle doubleGaugeCallback;
  final MethodHandle longGaugeDescription;
  final MethodHandle longGaugeUnit;
  final MethodHandle longGaugeCallback;
  final MethodHandle counterAdd;
  final MethodHandle doubleCounterAdd;
  final MethodHandle histogramRecord;
  final MethodHandle longMeasurementRecord;
  final MethodHandle doubleMeasurementRecord;

  private AppApi(String origin, ClassLoader loader, String prefix) throws ReflectiveOperationException {
    this.origin = origin;
    Lookup l = new Lookup(loader, prefix);
    Class<?> otel = l.type(API + ".OpenTelemetry");
    Class<?> tracer = l.type(API + ".trace.Tracer");
    Class<?> builder = l.type(API + ".trace.SpanBuilder");
    Class<?> span = l.type(API + ".trace.Span");
    Class<?> spanContext = l.type(API + ".trace.SpanContext");
    Class<?> flags = l.type(API + ".trace.TraceFlags");
    Class<?> context = l.type(CONTEXT + ".Context");
    Class<?> keyed = l.type(CONTEXT + ".ImplicitContextKeyed");
    Class<?> scope = l.type(CONTEXT + ".Scope");
    Class<?> attributes = l.type(API + ".common.Attributes");
    Class<?> attributesBuilderType = l.type(API + ".common.AttributesBuilder");
    Class<?> key = l.type(API + ".common.AttributeKey");
    Class<?> meter = l.type(API + ".metrics.Meter");
    Class<?> longCounterBuilder = l.type(API + ".metrics.LongCounterBuilder");
    Class<?> doubleCounterBuilder = l.type(API + ".metrics.DoubleCounterBuilder");
    Class<?> histogramBuilderType = l.type(API + ".metrics.DoubleHistogramBuilder");
    Class<?> doubleGaugeBuilder = l.type(API + ".metrics.DoubleGaugeBuilder");
    Class<?> longGaugeBuilder = l.type(API + ".metrics.LongGaugeBuilder");
    Class<?> longCounter = l.type(API + ".metrics.LongCounter");
    Class<?> doubleCounter = l.type(API + ".metrics.DoubleCounter");
    Class<?> histogram = l.type(API + ".metrics.DoubleHistogram");
    Class<?> longMeasurement = l.type(API + ".metrics.ObservableLongMeasurement");
    Class<?> doubleMeasurement = l.type(API + ".metrics.ObservableDoubleMeasurement");
    spanKindClass = l.type(API + ".trace.SpanKind");
    statusCodeClass = l.type(API + ".trace.StatusCode");
    Class<?> globalType = l.type(API + ".GlobalOpenTelemetry");

    isSet = GlobalState.isSetHandle(globalType); // never get(): it would set a no-op
    global = l.stat(globalType, "get", otel);
    getTracer = l.virt(otel, "getTracer", tracer, String.class);
    getMeter = l.virt(otel, "getMeter", meter, String.class);
    spanBuilder = l.virt(tracer, "spanBuilder", builder, String.class);
    setParent = l.virt(builder, "setParent", builder, context);
    setNoParent = l.virt(builder, "setNoParent", builder);
    setSpanKind = l.virt(builder, "setSpanKind", builder, spanKindClass);
    builderSetAttribute = l.virt(builder, "setAttribute", builder, key, Object.class);
    setStartTimestamp = l.virt(builder, "setStartTimestamp", builder, long.class, TimeUnit.class);
    startSpan = l.virt(builder, "startSpan", span);
    spanSetAttribute = l.virt(span, "setAttribute", span, key, Object.class);
    addEvent = l.virt(span, "addEvent", span, String.class, attributes);
    addEventAt = l.virt(span, "addEvent", span, String.class, attributes, long.class, TimeUnit.class);
    setStatus = l.virt(span, "setStatus", span, statusCodeClass, String.class);
    recordException = l.virt(span, "recordException", span, Throwable.class, attributes);
    updateName = l.virt(span, "updateName", span, String.class);
    end = l.virt(span, "end", void.class);
    endAt = l.virt(span, "end", void.class, long.class, TimeUnit.class);
    getSpanContext = l.virt(span, "getSpanContext", spanContext);
    isRecording = l.virt(span, "isRecording", boolean.class);
    traceId = l.virt(spanContext, "getTraceId", String.class);
    spanId = l.virt(spanContext, "getSpanId", String.class);
    traceFlags = l.virt(spanContext, "getTraceFlags", flags);
    flagsByte = l.virt(flags, "asByte", byte.class);
    currentContext = l.stat(context, "current", context);
    contextWith = l.virt(context, "with", context, keyed);
    makeCurrent = l.virt(context, "makeCurrent", scope);
    closeScope = l.virt(scope, "close", void.class);
    attributesBuilder = l.stat(attributes, "builder", attributesBuilderType);
    attributesPut = l.virt(attributesBuilderType, "put", attributesBuilderType, key, Object.class);
    attributesBuild = l.virt(attributesBuilderType, "build", attributes);
    try {
      emptyAttributes = l.stat(attributes, "empty", attributes).invoke();
    } catch (Throwable e) {
      throw new ReflectiveOperationException(e);
    }
    keyFactories = Map.of(
        "STRING", l.stat(key, "stringKey", key, String.class),
        "BOOLEAN", l.stat(key, "booleanKey", key, String.class),
        "LONG", l.stat(key, "longKey", key, String.class),
        "DOUBLE", l.stat(key, "doubleKey", key, String.class),
        "STRING_ARRAY", l.stat(key, "stringArrayKey", key, String.class),
        "BOOLEAN_ARRAY", l.stat(key, "booleanArrayKey", key, String.class),
        "LONG_ARRAY", l.stat(key, "longArrayKey", key, String.class),
        "DOUBLE_ARRAY", l.stat(key, "doubleArrayKey", key, String.class));
    counterBuilder = l.virt(meter, "counterBuilder", longCounterBuilder, String.class);
    histogramBuilder = l.virt(meter, "histogramBuilder", histogramBuilderType, String.class);
    gaugeBuilder = l.virt(meter, "gaugeBuilder", doubleGaugeBuilder, String.class);
    longCounterDescription = l.virt(longCounterBuilder, "setDescription", longCounterBuilder, String.class);
    longCounterUnit = l.virt(longCounterBuilder, "setUnit", longCounterBuilder, String.class);
    longCounterBuild = l.virt(longCounterBuilder, "build", longCounter);
    longCounterOfDoubles = l.virt(longCounterBuilder, "ofDoubles", doubleCounterBuilder);
    doubleCounterDescription = l.virt(doubleCounterBuilder, "setDescription", doubleCounterBuilder, String.class);
    doubleCounterUnit = l.virt(doubleCounterBuilder, "setUnit", doubleCounterBuilder, String.class);
    doubleCounterCallback = l.virt(doubleCounterBuilder, "buildWithCallback",
        l.type(API + ".metrics.ObservableDoubleCounter"), Consumer.class);
    doubleCounterBuild = l.virt(doubleCounterBuilder, "build", doubleCounter);
    histogramDescription = l.virt(histogramBuilderType, "setDescription", histogramBuilderType, String.class);
    histogramUnit = l.virt(histogramBuilderType, "setUnit", histogramBuilderType, String.class);
    histogramBuckets = l.virtOrNull(histogramBuilderType, "setExplicitBucketBoundariesAdvice",
        histogramBuilderType, List.class);
    histogramBuild = l.virt(histogramBuilderType, "build", histogram);
    doubleGaugeDescription = l.virt(doubleGaugeBuilder, "setDescription", doubleGaugeBuilder, String.class);
    doubleGaugeUnit = l.virt(doubleGaugeBuilder, "setUnit", doubleGaugeBuilder, String.class);
    doubleGaugeOfLongs = l.virt(doubleGaugeBuilder, "ofLongs", longGaugeBuilder);
    doubleGaugeCallback = l.virt(doubleGaugeBuilder, "buildWithCallback",
        l.type(API + ".metrics.ObservableDoubleGauge"), Consumer.class);
    longGaugeDescription = l.virt(longGaugeBuilder, "setDescription", longGaugeBuilder, String.class);
    longGaugeUnit = l.virt(longGaugeBuilder, "setUnit", longGaugeBuilder, String.class);
    longGaugeCallback = l.virt(longGaugeBuilder, "buildWithCallback",
        l.type(API + ".metrics.ObservableLongGauge"), Consumer.class);
    counterAdd = l.virt(longCounter, "add", void.class, long.class, attributes);
    doubleCounterAdd = l.virt(doubleCounter, "add", void.class, double.class, attributes);
    histogramRecord = l.virt(histogram, "record", void.class, double.class, attributes);
    longMeasurementRecord = l.virt(longMeasurement, "record", void.class, long.class, attributes);
    doubleMeasurementRecord = l.virt(doubleMeasurement, "record", void.class, double.class, attributes);
  }

  /**
   * The API in {@code loader} under {@code prefix} ({@code ""} for the app's own), if it is there,
   * is not the agent's own relocated copy, and has every method the bridge calls.
   */
  static Optional<AppApi> find(ClassLoader loader, String prefix, String origin) {
    try {
      Class<?> openTelemetry = Class.forName(prefix + API + ".OpenTelemetry", false, loader);
      if (openTelemetry == io.opentelemetry.api.OpenTelemetry.class) {
        return Optional.empty(); // our own relocated copy: nothing to bridge to
      }
      return Optional.of(new AppApi(origin, loader, prefix));
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The app's {@code GlobalOpenTelemetry} once it is set, else null; never sets it. */
  Object globalIfSet() {
    try {
      return (boolean) isSet.invoke() ? global.invoke() : null;
    } catch (Throwable unreadable) {
      return null;
    }
  }

  /** The app's attribute key for one of ours (cached: Tollgate's keys are constants). */
  Object key(AttributeKey<?> ours) {
    Object theirs = keys.get(ours);
    if (theirs == null) {
      try {
        theirs = keyFactories.get(ours.getType().name()).invoke(ours.getKey());
      } catch (Throwable e) {
        throw new IllegalStateException("cannot make attribute key " + ours.getKey(), e);
      }
      keys.put(ours, theirs);
    }
    return theirs;
  }

  Object attributes(Attributes ours) throws Throwable {
    if (ours == null || ours.isEmpty()) {
      return emptyAttributes;
    }
    Object builder = attributesBuilder.invoke();
    for (Map.Entry<AttributeKey<?>, Object> entry : ours.asMap().entrySet()) {
      attributesPut.invoke(builder, key(entry.getKey()), entry.getValue());
    }
    return attributesBuild.invoke(builder);
  }

  Object spanKind(Enum<?> ours) {
    return enumConstant(spanKindClass, ours.name());
  }

  Object statusCode(Enum<?> ours) {
    return enumConstant(statusCodeClass, ours.name());
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object enumConstant(Class<?> type, String name) {
    return Enum.valueOf((Class) type, name);
  }

  /** Finds classes and public methods of one API copy. */
  private record Lookup(ClassLoader loader, String prefix) {

    Class<?> type(String name) throws ClassNotFoundException {
      return Class.forName(prefix + name, false, loader);
    }

    MethodHandle virt(Class<?> owner, String name, Class<?> returns, Class<?>... parameters)
        throws ReflectiveOperationException {
      return MethodHandles.publicLookup().findVirtual(owner, name,
          MethodType.methodType(returns, parameters));
    }

    MethodHandle virtOrNull(Class<?> owner, String name, Class<?> returns, Class<?>... parameters) {
      try {
        return virt(owner, name, returns, parameters);
      } catch (ReflectiveOperationException absent) {
        return null;
      }
    }

    MethodHandle stat(Class<?> owner, String name, Class<?> returns, Class<?>... parameters)
        throws ReflectiveOperationException {
      return MethodHandles.publicLookup().findStatic(owner, name,
          MethodType.methodType(returns, parameters));
    }
  }
}
