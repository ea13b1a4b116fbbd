package io.tollgate.spring.boot;

import java.util.Set;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Which of Spring's HTTP transports the Tollgate agent limits, so that the starter hooks Spring's
 * clients exactly where the agent does not: with the agent attached, a {@code RestClient} on the
 * JDK {@code HttpClient} is limited by the agent alone, one on {@code HttpURLConnection} or Reactor
 * Netty by the starter alone. Without the agent every transport is the starter's.
 *
 * <p>The transport is known from what Boot builds the clients with: the {@code ClientHttpConnector}
 * bean (WebClient), else Boot's {@code ClientHttpRequestFactoryBuilder} /
 * {@code ClientHttpConnectorBuilder} bean (same class names on Boot 3.5 and 4.0). The agent limits
 * Spring's JDK, OkHttp and Apache HttpClient factories and connectors. Only those listed below as
 * not seen by the agent are hooked; a transport of unknown kind counts as the agent's, so that with
 * the agent attached no call is limited twice.
 */
final class AgentTransports {

  static final String REQUEST_FACTORY_BUILDER = "org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder";
  static final String CONNECTOR_BUILDER = "org.springframework.boot.http.client.reactive.ClientHttpConnectorBuilder";
  static final String CONNECTOR = "org.springframework.http.client.reactive.ClientHttpConnector";

  /** Transports the agent does not see: the starter limits them even with the agent attached. */
  private static final Set<String> NOT_AGENT_LIMITED = Set.of(
      "org.springframework.http.client.SimpleClientHttpRequestFactory",
      "org.springframework.http.client.ReactorClientHttpRequestFactory",
      "org.springframework.http.client.JettyClientHttpRequestFactory",
      "org.springframework.boot.http.client.SimpleClientHttpRequestFactoryBuilder",
      "org.springframework.boot.http.client.ReactorClientHttpRequestFactoryBuilder",
      "org.springframework.boot.http.client.JettyClientHttpRequestFactoryBuilder",
      "org.springframework.http.client.reactive.ReactorClientHttpConnector",
      "org.springframework.http.client.reactive.ReactorNetty2ClientHttpConnector",
      "org.springframework.http.client.reactive.JettyClientHttpConnector",
      "org.springframework.boot.http.client.reactive.ReactorClientHttpConnectorBuilder",
      "org.springframework.boot.http.client.reactive.JettyClientHttpConnectorBuilder");

  private final boolean agentRunning;
  private final ListableBeanFactory beans;

  AgentTransports(boolean agentRunning, ListableBeanFactory beans) {
    this.agentRunning = agentRunning;
    this.beans = beans;
  }

  /** Whether the starter should hook the {@code RestClient} and {@code RestTemplate} builders. */
  boolean starterLimitsRestClients() {
    return !agentRunning || notAgentLimited(bean(REQUEST_FACTORY_BUILDER));
  }

  /** Whether the starter should hook the {@code WebClient} builders. */
  boolean starterLimitsWebClients() {
    if (!agentRunning) {
      return true;
    }
    Object connector = bean(CONNECTOR);
    return notAgentLimited(connector != null ? connector : bean(CONNECTOR_BUILDER));
  }

  /** Whether {@code transport} (a factory, connector or Boot builder of one) is one the agent does not see. */
  static boolean notAgentLimited(Object transport) {
    return transport != null && NOT_AGENT_LIMITED.contains(transport.getClass().getName());
  }

  private Object bean(String typeName) {
    ClassLoader loader = AgentTransports.class.getClassLoader();
    if (!ClassUtils.isPresent(typeName, loader)) {
      return null;
    }
    return beans.getBeanProvider(ClassUtils.resolveClassName(typeName, loader)).getIfUnique();
  }
}
