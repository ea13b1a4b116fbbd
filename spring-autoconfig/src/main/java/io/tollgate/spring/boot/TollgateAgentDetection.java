package io.tollgate.spring.boot;

import java.lang.reflect.Method;

/**
 * Whether the Tollgate agent runs in this JVM. {@code -javaagent} puts the agent jar on the system
 * class path, and its {@code AgentGates.gate()} is non-null once it has started (null when it is
 * disabled by a bad configuration or {@code mode: off}).
 */
final class TollgateAgentDetection {

  static final String AGENT_GATES = "io.tollgate.agent.AgentGates";

  private TollgateAgentDetection() {}

  static boolean agentRunning() {
    try {
      Class<?> gates = Class.forName(AGENT_GATES, true, ClassLoader.getSystemClassLoader());
      Method gate = gates.getMethod("gate");
      return gate.invoke(null) != null;
    } catch (ReflectiveOperationException | LinkageError | SecurityException e) {
      return false;
    }
  }
}
