package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;

/** Which of Spring's transports the starter hooks while the agent runs, on real instances. */
class AgentTransportsTest {

  @Test
  void theAgentsTransportsAreLeftToTheAgent() {
    assertThat(AgentTransports.notAgentLimited(new JdkClientHttpRequestFactory())).isFalse();
    assertThat(AgentTransports.notAgentLimited(new JdkClientHttpConnector())).isFalse();
  }

  @Test
  void transportsTheAgentDoesNotSeeAreTheStarters() {
    assertThat(AgentTransports.notAgentLimited(new SimpleClientHttpRequestFactory())).isTrue();
    assertThat(AgentTransports.notAgentLimited(new ReactorClientHttpConnector())).isTrue();
  }

  @Test
  void anUnknownTransportIsLeftToTheAgent() {
    ClientHttpRequestFactory own = (uri, method) -> new SimpleClientHttpRequestFactory().createRequest(uri, method);
    assertThat(AgentTransports.notAgentLimited(own)).isFalse();
    assertThat(AgentTransports.notAgentLimited(null)).isFalse();
  }

  @Test
  void withoutTheAgentEveryBuilderIsHooked() {
    AgentTransports transports = new AgentTransports(false, new DefaultListableBeanFactory());
    assertThat(transports.starterLimitsRestClients()).isTrue();
    assertThat(transports.starterLimitsWebClients()).isTrue();
  }

  @Test
  void withTheAgentTheConnectorBeanDecides() {
    DefaultListableBeanFactory reactor = new DefaultListableBeanFactory();
    reactor.registerSingleton("connector", new ReactorClientHttpConnector());
    assertThat(new AgentTransports(true, reactor).starterLimitsWebClients()).isTrue();

    DefaultListableBeanFactory jdk = new DefaultListableBeanFactory();
    jdk.registerSingleton("connector", new JdkClientHttpConnector());
    assertThat(new AgentTransports(true, jdk).starterLimitsWebClients()).isFalse();
    assertThat(new AgentTransports(true, jdk).starterLimitsRestClients())
        .as("no ClientHttpRequestFactoryBuilder bean: unknown, left to the agent").isFalse();
  }
}
