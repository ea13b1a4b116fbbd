package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.gate.Gate;
import io.tollgate.spring.boot.client.TollgateClientHttpRequestInterceptor;
import io.tollgate.spring.boot.client.WebClientHook;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Runs in a JVM started with {@code -javaagent:tollgate-agent.jar} (the failsafe execution of this
 * module): the agent limits the HTTP clients itself, so the starter adds no hook of its own and no
 * call is limited twice. The rest of the starter (gate, filter, actuator) is unaffected.
 */
class AgentAttachedIT {

  @Test
  void clientHooksAreSkippedWhileTheAgentRuns() throws Exception {
    Object agentGate = Class.forName(TollgateAgentDetection.AGENT_GATES, true, ClassLoader.getSystemClassLoader())
        .getMethod("gate").invoke(null);
    assertThat(agentGate).as("the agent started in this JVM").isNotNull();

    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurationTest.TOLLGATE)
        .withPropertyValues("tollgate.providers.openai.base-url=http://127.0.0.1:9/v1")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).hasSingleBean(Gate.class);
          assertThat(context).doesNotHaveBean(TollgateClientHttpRequestInterceptor.class);
          assertThat(context).doesNotHaveBean(WebClientHook.class);
        });
  }
}
