package io.tollgate.telemetry;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

/**
 * Where Tollgate's spans hang in the app's trace. The default is the OpenTelemetry {@link Context}
 * Tollgate itself links against. The agent carries a relocated copy of the OpenTelemetry API that
 * cannot see the app's context, so it supplies a link that reads the app's current span as the
 * parent and makes Tollgate's attempt span current in the app's context as well (docs/telemetry.md).
 */
public interface ContextLink {

  /** The context of the app's current span: the parent of a {@code tollgate.call} span. */
  Context parent();

  /**
   * Makes {@code context} (holding an attempt span) current while the attempt is sent, so the HTTP
   * client's own span is its child.
   */
  Scope attach(Context context);

  /** The API's own context: what an app or a library without relocation sees. */
  ContextLink LOCAL = new ContextLink() {
    @Override
    public Context parent() {
      return Context.current();
    }

    @Override
    public Scope attach(Context context) {
      return context.makeCurrent();
    }
  };
}
