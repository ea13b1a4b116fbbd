package io.tollgate.agent.telemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.tollgate.telemetry.ContextLink;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * Joins the agent's spans to the app's trace across the relocation boundary. The agent's
 * OpenTelemetry API is relocated ({@code io.tollgate.agent.shaded.io.opentelemetry}), so its
 * {@code Context} cannot see the span the app (or the OpenTelemetry Java agent) has made current.
 * This link reaches the app's own API by reflection, in the calling thread's context class loader
 * (else the system class loader), or the OpenTelemetry Java agent's copy on the boot class path:
 *
 * <ul>
 *   <li>{@link #parent()}: the app's current span, as a remote parent of {@code tollgate.call};
 *   <li>{@link #attach}: while an attempt is sent, the attempt's span is made current in the app's
 *       context too (as a non-recording {@code Span.wrap}), so the app's HTTP client span, made by
 *       the app's or the OpenTelemetry agent's instrumentation, is its child.
 * </ul>
 *
 * Class names are assembled at run time: the shade plugin would otherwise relocate them too.
 */
final class AppContextLink implements ContextLink {

  private static final String API = String.join(".", "io", "opentelemetry", "api");
  private static final String CONTEXT = String.join(".", "io", "opentelemetry", "context");
  /** Where the OpenTelemetry Java agent keeps its relocated API, on the boot class path. */
  private static final String OTEL_AGENT_PREFIX =
      String.join(".", "io", "opentelemetry", "javaagent", "shaded", "");

  private final Map<ClassLoader, Optional<AppApi>> byLoader = new WeakHashMap<>();
  private volatile Optional<AppApi> bootstrap;

  private AppContextLink() {}

  static AppContextLink create() {
    return new AppContextLink();
  }

  @Override
  public Context parent() {
    Context local = Context.current();
    if (Span.fromContext(local).getSpanContext().isValid()) {
      return local;
    }
    Optional<AppApi> api = api();
    if (api.isEmpty()) {
      return local;
    }
    try {
      Optional<SpanContext> current = api.get().currentSpanContext();
      return current.map(remote -> local.with(Span.wrap(remote))).orElse(local);
    } catch (Throwable e) {
      return local;
    }
  }

  @Override
  public Scope attach(Context context) {
    Scope local = context.makeCurrent();
    Optional<AppApi> api = api();
    SpanContext ours = Span.fromContext(context).getSpanContext();
    if (api.isEmpty() || !ours.isValid()) {
      return local;
    }
    try {
      AutoCloseable app = api.get().makeCurrent(ours);
      return () -> {
        try {
          app.close();
        } catch (Throwable ignored) {
          // the app's scope is the app's API's own; nothing of ours to undo
        }
        local.close();
      };
    } catch (Throwable e) {
      return local;
    }
  }

  private Optional<AppApi> api() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = ClassLoader.getSystemClassLoader();
    }
    Optional<AppApi> found;
    synchronized (byLoader) {
      found = byLoader.computeIfAbsent(loader, l -> AppApi.find(l, ""));
    }
    if (found.isPresent()) {
      return found;
    }
    Optional<AppApi> boot = bootstrap;
    if (boot == null) {
      boot = AppApi.find(null, OTEL_AGENT_PREFIX);
      bootstrap = boot;
    }
    return boot;
  }

  /** The app's OpenTelemetry API, through method handles found once per class loader. */
  private record AppApi(MethodHandle currentSpan, MethodHandle spanContext, MethodHandle isValid,
      MethodHandle traceId, MethodHandle spanId, MethodHandle traceFlags, MethodHandle flagsByte,
      MethodHandle createSpanContext, MethodHandle flagsFromByte, MethodHandle defaultTraceState,
      MethodHandle wrap, MethodHandle currentContext, MethodHandle with, MethodHandle makeCurrent,
      MethodHandle closeScope) {

    static Optional<AppApi> find(ClassLoader loader, String prefix) {
      try {
        Class<?> span = Class.forName(prefix + API + ".trace.Span", false, loader);
        if (span == Span.class) {
          return Optional.empty(); // our own copy: nothing to link
        }
        Class<?> spanContext = Class.forName(prefix + API + ".trace.SpanContext", false, loader);
        Class<?> traceFlags = Class.forName(prefix + API + ".trace.TraceFlags", false, loader);
        Class<?> traceState = Class.forName(prefix + API + ".trace.TraceState", false, loader);
        Class<?> context = Class.forName(prefix + CONTEXT + ".Context", false, loader);
        Class<?> keyed = Class.forName(prefix + CONTEXT + ".ImplicitContextKeyed", false, loader);
        Class<?> scope = Class.forName(prefix + CONTEXT + ".Scope", false, loader);
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        return Optional.of(new AppApi(
            lookup.findStatic(span, "current", MethodType.methodType(span)),
            lookup.findVirtual(span, "getSpanContext", MethodType.methodType(spanContext)),
            lookup.findVirtual(spanContext, "isValid", MethodType.methodType(boolean.class)),
            lookup.findVirtual(spanContext, "getTraceId", MethodType.methodType(String.class)),
            lookup.findVirtual(spanContext, "getSpanId", MethodType.methodType(String.class)),
            lookup.findVirtual(spanContext, "getTraceFlags", MethodType.methodType(traceFlags)),
            lookup.findVirtual(traceFlags, "asByte", MethodType.methodType(byte.class)),
            lookup.findStatic(spanContext, "create", MethodType.methodType(spanContext,
                String.class, String.class, traceFlags, traceState)),
            lookup.findStatic(traceFlags, "fromByte", MethodType.methodType(traceFlags, byte.class)),
            lookup.findStatic(traceState, "getDefault", MethodType.methodType(traceState)),
            lookup.findStatic(span, "wrap", MethodType.methodType(span, spanContext)),
            lookup.findStatic(context, "current", MethodType.methodType(context)),
            lookup.findVirtual(context, "with", MethodType.methodType(context, keyed)),
            lookup.findVirtual(context, "makeCurrent", MethodType.methodType(scope)),
            lookup.findVirtual(scope, "close", MethodType.methodType(void.class))));
      } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
        return Optional.empty();
      }
    }

    Optional<SpanContext> currentSpanContext() throws Throwable {
      Object context = spanContext.invoke(currentSpan.invoke());
      if (!(boolean) isValid.invoke(context)) {
        return Optional.empty();
      }
      byte flags = (byte) flagsByte.invoke(traceFlags.invoke(context));
      return Optional.of(SpanContext.createFromRemoteParent((String) traceId.invoke(context),
          (String) spanId.invoke(context), TraceFlags.fromByte(flags), TraceState.getDefault()));
    }

    AutoCloseable makeCurrent(SpanContext ours) throws Throwable {
      Object theirs = createSpanContext.invoke(ours.getTraceId(), ours.getSpanId(),
          flagsFromByte.invoke(ours.getTraceFlags().asByte()), defaultTraceState.invoke());
      Object span = wrap.invoke(theirs);
      Object scope = makeCurrent.invoke(with.invoke(currentContext.invoke(), span));
      return () -> {
        try {
          closeScope.invoke(scope);
        } catch (Throwable e) {
          throw new IllegalStateException(e);
        }
      };
    }
  }
}
