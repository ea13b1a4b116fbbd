package io.tollgate.gate;

import java.util.Optional;

/**
 * The Tollgate agent attached to this JVM, as app-side code (the servlet filter, the Spring
 * starter) sees it: through the agent's bridge, a class of JDK types only that the agent jar puts
 * on the system class path. The agent's own copy of the core is relocated and never linked by the
 * app; what must cross between the two (the tenant and user bound to a request, a call already
 * gated) crosses here.
 */
public final class AttachedAgent {

  static final String BRIDGE = "io.tollgate.agent.bridge.TollgateBridge";

  private static final Optional<Class<?>> BRIDGE_CLASS = findBridge();
  private static final Optional<ThreadLocal<Boolean>> CALL_GATED = bridgeField("CALL_GATED");

  private AttachedAgent() {}

  /**
   * Marks this thread, until the returned scope closes, as sending a call this copy of the core
   * has gated: an attached agent lets it pass instead of gating it again. Front ends wrap the
   * sending of each attempt they made through their {@link Gate} in it.
   */
  public static Tenants.Scope sendingGatedCall() {
    Optional<ThreadLocal<Boolean>> mark = CALL_GATED;
    if (mark.isEmpty()) {
      return () -> { };
    }
    ThreadLocal<Boolean> gated = mark.get();
    Boolean previous = gated.get();
    gated.set(Boolean.TRUE);
    return () -> {
      if (previous == null) {
        gated.remove();
      }
    };
  }

  /** The thread-local every copy of the core binds tenants in while an agent is attached. */
  static Optional<ThreadLocal<String>> sharedTenant() {
    return bridgeField("TENANT");
  }

  /**
   * The thread-local every copy of the core binds the user inside a tenant in; empty under an
   * agent whose bridge predates users, which then charges the tenant alone.
   */
  static Optional<ThreadLocal<String>> sharedUser() {
    return bridgeField("USER");
  }

  @SuppressWarnings("unchecked")
  private static <T> Optional<ThreadLocal<T>> bridgeField(String name) {
    return BRIDGE_CLASS.map(bridge -> {
      try {
        return (ThreadLocal<T>) bridge.getField(name).get(null);
      } catch (ReflectiveOperationException | ClassCastException e) {
        return null;
      }
    });
  }

  private static Optional<Class<?>> findBridge() {
    try {
      return Optional.of(Class.forName(BRIDGE, true, ClassLoader.getSystemClassLoader()));
    } catch (ClassNotFoundException | LinkageError | SecurityException e) {
      return Optional.empty();
    }
  }
}
