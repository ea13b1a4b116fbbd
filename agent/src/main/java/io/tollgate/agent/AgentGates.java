package io.tollgate.agent;

import io.tollgate.gate.Gate;

/**
 * The gates of this JVM, for the instrumentation helpers that run in the app's class loaders.
 * Empty (null) until the agent has started, and forever when it is disabled.
 */
public final class AgentGates {

  private static volatile Gate waiting;
  private static volatile Gate nonWaiting;

  private AgentGates() {}

  /**
   * @param gate the gate as configured
   * @param neverWaits the same limiter and breakers, but answering at once when limited: for
   *     threads that must not block (the same gate when {@code on-limit} is {@code reject})
   */
  static void install(Gate gate, Gate neverWaits) {
    nonWaiting = neverWaits;
    waiting = gate;
  }

  /** The gate for a call on this thread, or null when Tollgate is not running. */
  public static Gate forCurrentThread() {
    Gate gate = waiting;
    if (gate == null) {
      return null;
    }
    return CallerThreads.mayWait() ? gate : nonWaiting;
  }

  /** The gate as configured, or null when Tollgate is not running. */
  public static Gate gate() {
    return waiting;
  }
}
