package io.tollgate.spring.boot;

import java.lang.reflect.Method;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches unless the Tollgate agent runs in this JVM. The agent limits HTTP client libraries
 * itself; hooks on Spring's clients as well would count each call twice. {@code -javaagent} puts
 * the agent jar on the system class path, and its {@code AgentGates.gate()} is non-null once it has
 * started (null when it is disabled by a bad configuration or {@code mode: off}).
 */
class TollgateAgentDetection extends SpringBootCondition {

  static final String AGENT_GATES = "io.tollgate.agent.AgentGates";

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    return agentRunning()
        ? ConditionOutcome.noMatch("the Tollgate agent runs in this JVM and limits the HTTP clients itself")
        : ConditionOutcome.match("the Tollgate agent is not running");
  }

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
