package io.tollgate.agent;

import java.lang.instrument.Instrumentation;

/**
 * Entry point of {@code -javaagent:tollgate-agent.jar}.
 *
 * <p>The HTTP client instrumentation is installed here once the call pipeline of the core exists;
 * until then attaching the agent leaves the application exactly as it was.
 */
public final class TollgateAgent {

  private TollgateAgent() {}

  public static void premain(String arguments, Instrumentation instrumentation) {
    // Intentionally empty until the instrumentation lands: attaching must never break the app.
  }

  public static void agentmain(String arguments, Instrumentation instrumentation) {
    premain(arguments, instrumentation);
  }
}
