package io.tollgate.agent.telemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import io.tollgate.telemetry.ContextLink;

/**
 * The agent's context link once it records into the app's OpenTelemetry ({@link AppGlobal}):
 * Tollgate's spans are then the app's own spans, so parenting is the app's own:
 *
 * <ul>
 *   <li>{@link #parent()}: the app's current context, carried in the agent's relocated context, so
 *       {@code tollgate.call} is an ordinary child of the app's current span;
 *   <li>{@link #attach}: while an attempt is sent, the app's attempt span is current in the app's
 *       context, so the app's (or the OpenTelemetry Java agent's) HTTP client span is its child.
 * </ul>
 *
 * Until the app's instance is found it defers to {@code own}, the link of the agent's own SDK.
 */
final class BridgedContextLink implements ContextLink {

  /** The app's context a relocated context stands for. */
  private static final ContextKey<Object> APP_CONTEXT = ContextKey.named("tollgate-app-context");

  private final AppGlobal global;
  private final ContextLink own;

  BridgedContextLink(AppGlobal global, ContextLink own) {
    this.global = global;
    this.own = own;
  }

  @Override
  public Context parent() {
    BridgedOpenTelemetry bridged = global.found();
    if (bridged == null) {
      return own.parent();
    }
    Context local = Context.current();
    try {
      return local.with(APP_CONTEXT, bridged.api().currentContext.invoke());
    } catch (Throwable e) {
      return local;
    }
  }

  @Override
  public Scope attach(Context context) {
    BridgedOpenTelemetry bridged = global.found();
    if (bridged == null) {
      return own.attach(context);
    }
    Scope local = context.makeCurrent();
    AppApi api = bridged.api();
    Object appScope;
    try {
      appScope = api.makeCurrent.invoke(appContext(api, context));
    } catch (Throwable e) {
      return local;
    }
    return () -> {
      try {
        api.closeScope.invoke(appScope);
      } catch (Throwable ignored) {
        // the app's scope is the app's API's own; nothing of ours to undo
      }
      local.close();
    };
  }

  /**
   * The app's context for one of the agent's: the app's context it was made from (else the app's
   * current one), with the app's span behind the agent's span in it, if any.
   */
  static Object appContext(AppApi api, Context ours) throws Throwable {
    Object base = ours == null ? null : ours.get(APP_CONTEXT);
    if (base == null) {
      base = api.currentContext.invoke();
    }
    Span span = ours == null ? null : Span.fromContextOrNull(ours);
    if (span instanceof BridgedSpan bridged) {
      base = api.contextWith.invoke(base, bridged.app);
    }
    return base;
  }
}
