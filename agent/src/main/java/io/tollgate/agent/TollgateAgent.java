package io.tollgate.agent;

import java.lang.instrument.Instrumentation;

/**
 * Entry point of {@code -javaagent:tollgate-agent.jar[=config=/path/tollgate.yaml]}.
 *
 * <p>Reads the configuration, builds the one {@link io.tollgate.gate.Gate} of this JVM and installs
 * the HTTP client instrumentation. A bad configuration disables Tollgate with one line on stderr
 * (the app runs untouched), or aborts start-up under {@code strict: true}. See docs/agent.md.
 */
public final class TollgateAgent {

  private TollgateAgent() {}

  /** Attached at launch with {@code -javaagent}. */
  public static void premain(String arguments, Instrumentation instrumentation) {
    AgentStartup.start(arguments, instrumentation, AgentStartup.Attach.LAUNCH);
  }

  /** Attached to a running JVM: classes already loaded are retransformed. */
  public static void agentmain(String arguments, Instrumentation instrumentation) {
    AgentStartup.start(arguments, instrumentation, AgentStartup.Attach.RUNNING);
  }
}
