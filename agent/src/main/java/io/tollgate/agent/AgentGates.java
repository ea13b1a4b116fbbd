package io.tollgate.agent;

import io.tollgate.gate.Gate;

/**
 * The gate of this JVM, for the instrumentation helpers that run in the app's class loaders.
 * Empty (null) until the agent has started, and forever when it is disabled. A helper on a thread
 * that must not sleep (OkHttp's dispatcher) calls it through {@link Gate#callWithoutPausing}.
 */
public final class AgentGates {

  private static volatile Gate gate;

  private AgentGates() {}

  static void install(Gate configured) {
    gate = configured;
  }

  /** The gate as configured, or null when Tollgate is not running. */
  public static Gate gate() {
    return gate;
  }
}
