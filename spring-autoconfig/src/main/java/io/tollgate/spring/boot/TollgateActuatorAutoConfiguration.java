package io.tollgate.spring.boot;

import io.tollgate.gate.Gate;
import io.tollgate.redis.RedisConnection;
import io.tollgate.spring.boot.actuate.TollgateEndpoint;
import io.tollgate.spring.boot.actuate.TollgateEndpointWebExtension;
import io.tollgate.spring.boot.actuate.TollgateHealth;
import io.tollgate.spring.boot.actuate.TollgateInfoContributor;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.info.ConditionalOnEnabledInfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator support, when the app has the actuator: the {@code tollgate} health indicator (Redis
 * reachable, open breakers), the {@code /actuator/tollgate} endpoint (and the status page there, on
 * the web) and Tollgate's entry in {@code /actuator/info} (its version; off with
 * {@code management.info.tollgate.enabled=false}). Boot 4.0 moved the health types to spring-boot-health, so each line has its own nested
 * configuration, chosen by class name; the info types are where they were.
 */
@AutoConfiguration(after = TollgateAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(Gate.class)
public class TollgateActuatorAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnAvailableEndpoint(endpoint = TollgateEndpoint.class)
  public TollgateEndpoint tollgateEndpoint(Gate gate) {
    return new TollgateEndpoint(gate);
  }

  /** The status page at {@code /actuator/tollgate}, for a browser. */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnAvailableEndpoint(endpoint = TollgateEndpoint.class)
  public TollgateEndpointWebExtension tollgateEndpointWebExtension(TollgateEndpoint endpoint, Gate gate) {
    return new TollgateEndpointWebExtension(endpoint, gate);
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnEnabledInfoContributor("tollgate")
  public TollgateInfoContributor tollgateInfoContributor(Gate gate) {
    return new TollgateInfoContributor(gate);
  }

  @Bean
  @ConditionalOnMissingBean
  public TollgateHealth tollgateHealth(Gate gate, ObjectProvider<RedisConnection> redis) {
    return new TollgateHealth(gate, Optional.ofNullable(redis.getIfAvailable()));
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  @org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator("tollgate")
  static class Boot3Health {

    @Bean
    @ConditionalOnMissingBean(name = "tollgateHealthIndicator")
    org.springframework.boot.actuate.health.HealthIndicator tollgateHealthIndicator(TollgateHealth health) {
      return () -> {
        TollgateHealth.Report report = health.check();
        return (report.up() ? org.springframework.boot.actuate.health.Health.up()
            : org.springframework.boot.actuate.health.Health.down()).withDetails(report.details()).build();
      };
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  @org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator("tollgate")
  static class Boot4Health {

    @Bean
    @ConditionalOnMissingBean(name = "tollgateHealthIndicator")
    org.springframework.boot.health.contributor.HealthIndicator tollgateHealthIndicator(TollgateHealth health) {
      return () -> {
        TollgateHealth.Report report = health.check();
        return (report.up() ? org.springframework.boot.health.contributor.Health.up()
            : org.springframework.boot.health.contributor.Health.down()).withDetails(report.details()).build();
      };
    }
  }
}
