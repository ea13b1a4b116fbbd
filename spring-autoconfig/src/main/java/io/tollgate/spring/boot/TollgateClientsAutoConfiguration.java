package io.tollgate.spring.boot;

import io.tollgate.gate.Gate;
import io.tollgate.spring.boot.client.NonFollowingTwins;
import io.tollgate.spring.boot.client.ReactorRedirectGuard;
import io.tollgate.spring.boot.client.TollgateClientHttpRequestInterceptor;
import io.tollgate.spring.boot.client.WebClientHook;
import java.lang.reflect.Proxy;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Outbound limiting for Spring's own HTTP clients, through the {@link Gate} bean: an interceptor
 * on every {@code RestClient.Builder} and {@code RestTemplateBuilder} Boot hands out, an exchange
 * filter on every {@code WebClient.Builder}, whatever transport it runs on. While the Tollgate
 * agent runs in this JVM, the attempts the starter sends are marked through the agent's bridge
 * ({@code AttachedAgent.sendingGatedCall}) and the agent lets them pass: no call is limited twice,
 * none is left out, and Spring's clients follow {@code application.yml}.
 *
 * <p>Boot 4.0 moved the customizer interfaces into modules of their own (spring-boot-restclient,
 * spring-boot-webclient), so each Boot line has its own nested configuration, chosen by class name.
 * The customizers run last ({@link Ordered#LOWEST_PRECEDENCE}): interceptors other customizers add
 * run before Tollgate's, so none of them can rewrite a fallback's credential.
 */
@AutoConfiguration(after = TollgateAutoConfiguration.class)
@ConditionalOnProperty(name = {"tollgate.enabled", "tollgate.client.enabled"}, havingValue = "true", matchIfMissing = true)
@ConditionalOnBean(Gate.class)
public class TollgateClientsAutoConfiguration {

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.http.client.ClientHttpRequestInterceptor")
  static class RestClients {

    @Bean
    @ConditionalOnMissingBean
    TollgateClientHttpRequestInterceptor tollgateClientHttpRequestInterceptor(Gate gate) {
      return new TollgateClientHttpRequestInterceptor(gate);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.web.client.RestClientCustomizer")
    static class Boot3 {

      @Bean
      @Order(Ordered.LOWEST_PRECEDENCE)
      org.springframework.boot.web.client.RestClientCustomizer tollgateRestClientCustomizer(
          TollgateClientHttpRequestInterceptor interceptor) {
        return builder -> builder.requestInterceptor(interceptor);
      }

      @Bean
      @Order(Ordered.LOWEST_PRECEDENCE)
      org.springframework.boot.web.client.RestTemplateCustomizer tollgateRestTemplateCustomizer(
          TollgateClientHttpRequestInterceptor interceptor) {
        return restTemplate -> restTemplate.getInterceptors().add(interceptor);
      }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.restclient.RestClientCustomizer")
    static class Boot4 {

      @Bean
      @Order(Ordered.LOWEST_PRECEDENCE)
      org.springframework.boot.restclient.RestClientCustomizer tollgateRestClientCustomizer(
          TollgateClientHttpRequestInterceptor interceptor) {
        return builder -> builder.requestInterceptor(interceptor);
      }

      @Bean
      @Order(Ordered.LOWEST_PRECEDENCE)
      org.springframework.boot.restclient.RestTemplateCustomizer tollgateRestTemplateCustomizer(
          TollgateClientHttpRequestInterceptor interceptor) {
        return restTemplate -> restTemplate.getInterceptors().add(interceptor);
      }
    }
  }

  /**
   * Redirects of the Reactor Netty clients Boot builds for RestClient, RestTemplate and WebClient:
   * a provider call's credentials stay on its origin ({@link ReactorRedirectGuard}). Boot's
   * builder beans are post-processed, so every client made from them gets the guard.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "reactor.netty.http.client.HttpClient")
  static class ReactorRedirects {

    @Bean
    @ConditionalOnClass(name = "org.springframework.boot.http.client.ReactorClientHttpRequestFactoryBuilder")
    static BeanPostProcessor tollgateReactorRequestFactoryRedirects(ObjectProvider<Gate> gate) {
      return new BeanPostProcessor() {
        @Override
        public Object postProcessAfterInitialization(Object bean, String name) {
          return bean instanceof org.springframework.boot.http.client.ReactorClientHttpRequestFactoryBuilder builder
              ? builder.withHttpClientCustomizer(new ReactorRedirectGuard(gate::getIfAvailable)) : bean;
        }
      };
    }

    @Bean
    @ConditionalOnClass(name = "org.springframework.boot.http.client.reactive.ReactorClientHttpConnectorBuilder")
    static BeanPostProcessor tollgateReactorConnectorRedirects(ObjectProvider<Gate> gate) {
      return new BeanPostProcessor() {
        @Override
        public Object postProcessAfterInitialization(Object bean, String name) {
          return bean instanceof org.springframework.boot.http.client.reactive.ReactorClientHttpConnectorBuilder builder
              ? builder.withHttpClientCustomizer(new ReactorRedirectGuard(gate::getIfAvailable)) : bean;
        }
      };
    }
  }

  /**
   * Redirects of the other request factories Boot builds for RestClient and RestTemplate (the JDK
   * {@code HttpClient}, Apache HttpClient 5, Jetty, {@code HttpURLConnection}): each comes with a
   * twin that follows none, for Tollgate's attempts only ({@link NonFollowingTwins}). Reactor's is
   * left to {@link ReactorRedirectGuard}.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder",
      "org.springframework.http.client.ClientHttpRequestInterceptor"})
  static class RequestFactoryRedirects {

    @Bean
    static BeanPostProcessor tollgateRequestFactoryRedirects() {
      return new BeanPostProcessor() {
        @Override
        public Object postProcessAfterInitialization(Object bean, String name) {
          return bean instanceof org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder<?>
              && !bean.getClass().getName().equals("org.springframework.boot.http.client.ReactorClientHttpRequestFactoryBuilder")
              && !Proxy.isProxyClass(bean.getClass())
              ? NonFollowingTwins.wrap(bean, org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder.class)
              : bean;
        }
      };
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.web.reactive.function.client.WebClient")
  static class WebClients {

    @Bean
    @ConditionalOnMissingBean
    WebClientHook tollgateWebClientHook(Gate gate) {
      return new WebClientHook(gate);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.web.reactive.function.client.WebClientCustomizer")
    static class Boot3 {

      @Bean
      @Order(Ordered.LOWEST_PRECEDENCE)
      org.springframework.boot.web.reactive.function.client.WebClientCustomizer tollgateWebClientCustomizer(
          WebClientHook hook) {
        return hook::apply;
      }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.webclient.WebClientCustomizer")
    static class Boot4 {

      @Bean
      @Order(Ordered.LOWEST_PRECEDENCE)
      org.springframework.boot.webclient.WebClientCustomizer tollgateWebClientCustomizer(WebClientHook hook) {
        return hook::apply;
      }
    }
  }
}
