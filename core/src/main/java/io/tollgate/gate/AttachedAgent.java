package io.tollgate.gate;

import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The Tollgate agent attached to this JVM, as app-side code (the servlet filter, the Spring
 * starter) sees it: through the agent's bridge, a class of JDK types only that the agent jar puts
 * on the system class path. The agent's own copy of the core is relocated and never linked by the
 * app; what must cross between the two (the tenant bound to a request, whether the agent gates a
 * client) crosses here.
 */
public final class AttachedAgent {

  static final String BRIDGE = "io.tollgate.agent.bridge.TollgateBridge";

  private static final Optional<Class<?>> BRIDGE_CLASS = findBridge();

  private AttachedAgent() {}

  /** Whether an agent is attached and its gate runs: it then limits the clients it instruments. */
  public static boolean gating() {
    return BRIDGE_CLASS.map(bridge -> {
      try {
        return ((BooleanSupplier) bridge.getField("agentGating").get(null)).getAsBoolean();
      } catch (ReflectiveOperationException | ClassCastException e) {
        return false;
      }
    }).orElse(false);
  }

  /** The thread-local every copy of the core binds tenants in while an agent is attached. */
  static Optional<ThreadLocal<String>> sharedTenant() {
    return BRIDGE_CLASS.map(bridge -> {
      try {
        @SuppressWarnings("unchecked")
        ThreadLocal<String> shared = (ThreadLocal<String>) bridge.getField("TENANT").get(null);
        return shared;
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
