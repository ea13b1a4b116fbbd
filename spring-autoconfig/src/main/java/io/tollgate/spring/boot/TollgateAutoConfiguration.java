package io.tollgate.spring.boot;

import io.opentelemetry.api.OpenTelemetry;
import io.tollgate.config.Limiters;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Gate;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.redis.RedisConnection;
import io.tollgate.router.ProviderBreakers;
import io.tollgate.telemetry.MetricsRecorder;
import io.tollgate.telemetry.Telemetry;
import java.time.Clock;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The core's parts, made from {@code tollgate.*}: the configuration, the Redis connection (when
 * {@code tollgate.redis} is set), the limiter, the breakers and the {@link Gate} every front end
 * calls. Each can be replaced by a bean of the app's own. {@code tollgate.enabled=false} turns the
 * whole starter off.
 */
@AutoConfiguration
@ConditionalOnProperty(prefix = "tollgate", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(TollgateProperties.class)
public class TollgateAutoConfiguration {

  /** Validated by the core: a bad value fails start-up naming its full key ({@link ConfigFailureAnalyzer}). */
  @Bean
  @ConditionalOnMissingBean
  public TollgateConfig tollgateConfig(TollgateProperties properties) {
    return TollgateConfigMapper.toConfig(properties);
  }

  /** In memory without {@code tollgate.redis}; Redis (with its local guard) with it. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public RateLimiter tollgateRateLimiter(TollgateConfig config, ObjectProvider<RedisConnection> redis) {
    RedisConnection connection = redis.getIfAvailable();
    if (config.redis().isEmpty() || connection == null) {
      return Limiters.create(Optional.empty());
    }
    return Limiters.create(config.redis(), connection);
  }

  /** Shared through Redis when it is configured (from the moment it answers), else per JVM. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public ProviderBreakers tollgateProviderBreakers(TollgateConfig config, ObjectProvider<RedisConnection> redis) {
    return ProviderBreakers.create(config.breaker(), Optional.ofNullable(redis.getIfAvailable()),
        Clock.systemUTC());
  }

  /**
   * Where the gate's spans and metrics go: the app's {@link OpenTelemetry} bean when there is
   * exactly one, else {@code GlobalOpenTelemetry} from the moment the app sets it; the metrics to
   * the {@link MetricsRecorder} bean instead when there is one (Micrometer's, {@link
   * TollgateMetricsAutoConfiguration}), so that each is recorded once.
   */
  @Bean
  @ConditionalOnMissingBean
  public Telemetry tollgateTelemetry(ObjectProvider<OpenTelemetry> openTelemetry,
      ObjectProvider<MetricsRecorder> metrics) {
    OpenTelemetry app = openTelemetry.getIfUnique();
    Telemetry telemetry = app != null ? Telemetry.of(app) : Telemetry.global();
    MetricsRecorder recorder = metrics.getIfUnique();
    return recorder == null ? telemetry : telemetry.withMetrics(recorder);
  }

  /** The one gate of the app: the Spring clients' hooks call it; the limiter and breakers stay the beans'. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Gate tollgateGate(TollgateConfig config, RateLimiter limiter, ProviderBreakers breakers,
      Telemetry telemetry, ObjectProvider<RedisConnection> redis) {
    Gate.Builder gate = Gate.builder(config).limiter(limiter).breakers(breakers).telemetry(telemetry)
        .frontEnd("starter");
    RedisConnection connection = redis.getIfAvailable();
    if (connection != null) {
      gate.redis(connection);
    }
    return gate.build();
  }

  /** The Redis client of the limiter and the breakers, made in the background as the app starts. */
  @Configuration(proxyBeanMethods = false)
  @Conditional(ConfiguredSection.Redis.class)
  static class RedisConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    RedisConnection tollgateRedisConnection(TollgateConfig config) {
      RedisConnection connection = config.redis().orElseThrow().newConnection();
      connection.connectInBackground();
      return connection;
    }
  }
}
