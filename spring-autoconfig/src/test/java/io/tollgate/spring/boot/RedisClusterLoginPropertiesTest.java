package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.ConfigException;
import io.tollgate.config.RedisConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.spring.boot.actuate.TollgateHealth;
import io.tollgate.testkit.redis.RedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import redis.clients.jedis.HostAndPort;

/**
 * {@code tollgate.redis.cluster} entries written as URLs with a password, bound by Spring (its own
 * {@code ${...}} placeholders included) onto a real password-protected Redis Cluster, on the Jedis
 * line Boot manages.
 */
class RedisClusterLoginPropertiesTest {

  private static final String PASSWORD = "Spring-cl7ster-s3cret";
  private static final Limits FIVE_PER_MINUTE = Limits.of(Limit.requests(5, Duration.ofMinutes(1)));

  private static RedisCluster cluster;

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurationTest.TOLLGATE)
      .withPropertyValues("tollgate.providers.openai.base-url=http://127.0.0.1:9/v1");

  @BeforeAll
  static void start() {
    cluster = RedisCluster.builder().password(PASSWORD).start();
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void verifyHostFalseReachesTheRedisConfig() {
    runner.withPropertyValues(seedProperties(PASSWORD))
        .withPropertyValues("tollgate.redis.verify-host=false")
        .run(context -> {
          assertThat(context).hasNotFailed();
          RedisConfig redis = context.getBean(TollgateConfig.class).redis().orElseThrow();
          assertThat(redis.verifyHost()).isFalse();
          assertThat(redis.toString()).endsWith(", reservation-ttl=10m, verify-host=false}");
        });
  }

  @Test
  void urlSeedsWithAPlaceholderPasswordLimitExactly() {
    runner.withPropertyValues(seedProperties("${redis-password}"))
        .withPropertyValues("redis-password=" + PASSWORD, "tollgate.redis.on-failure=fail-closed")
        .run(context -> {
          assertThat(context).hasNotFailed();
          RedisConfig redis = context.getBean(TollgateConfig.class).redis().orElseThrow();
          assertThat(redis.cluster()).hasSize(6);
          assertThat(redis.tls()).isFalse();
          assertThat(redis.verifyHost()).isTrue();
          assertThat(redis.password().orElseThrow().reveal()).isEqualTo(PASSWORD);
          assertThat(redis.toString()).doesNotContain(PASSWORD);

          RateLimiter limiter = context.getBean(RateLimiter.class);
          List<Decision> decisions = IntStream.range(0, 8)
              .mapToObj(i -> limiter.reserve(Subject.of("tenant", "spring"), FIVE_PER_MINUTE, 1, 0))
              .toList();
          assertThat(decisions).filteredOn(Decision::allowed).hasSize(5);
          assertThat(decisions).filteredOn(Decision::degraded).isEmpty();
          assertThat(context.getBean(TollgateHealth.class).check().details())
              .containsEntry("redisReachable", true);
        });
  }

  @Test
  void aWrongPasswordStartsTheAppDegradedWithAWarningThatNamesTheRefusal() {
    List<String> warnings = new CopyOnWriteArrayList<>();
    Logger logger = Logger.getLogger("io.tollgate.limiter.ResilientRateLimiter");
    Handler recorder = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
          warnings.add(new SimpleFormatter().formatMessage(record));
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(recorder);
    try {
      runner.withPropertyValues(seedProperties("Wr0ng-s3cret"))
          .withPropertyValues("tollgate.redis.on-failure=fail-closed")
          .run(context -> {
            assertThat(context).hasNotFailed();
            RateLimiter limiter = context.getBean(RateLimiter.class);
            List<Decision> decisions = IntStream.range(0, 3)
                .mapToObj(i -> limiter.reserve(Subject.of("tenant", "spring"), FIVE_PER_MINUTE, 1, 0))
                .toList();
            assertThat(decisions).allMatch(decision -> !decision.allowed() && decision.degraded());
            assertThat(context.getBean(TollgateHealth.class).check().details())
                .containsEntry("redisReachable", false);
          });
    } finally {
      logger.removeHandler(recorder);
    }
    assertThat(warnings).containsExactly("Redis limiter unreachable: Redis refused the login"
        + " (WRONGPASS invalid username-password pair or user is disabled.); check the user and"
        + " password in tollgate.redis; deciding to deny (fail-closed) until it answers");
  }

  @Test
  void entriesThatDisagreeFailStartUpNamingTheEntry() {
    runner.withPropertyValues("tollgate.redis.cluster[0]=rediss://:" + PASSWORD + "@a:7000",
            "tollgate.redis.cluster[1]=redis://:" + PASSWORD + "@b:7001")
        .run(context -> {
          assertThat(context).hasFailed();
          ConfigException error = configException(context.getStartupFailure());
          assertThat(List.of(error.key(), error.problem())).containsExactly("tollgate.redis.cluster[1]",
              "must use rediss:// like cluster[0]: every entry uses the same scheme, was redis://***@b:7001");
          assertThat(error).hasMessageNotContaining(PASSWORD);
        });
  }

  private static String[] seedProperties(String password) {
    List<String> properties = new ArrayList<>();
    List<HostAndPort> seeds = List.copyOf(cluster.seeds());
    for (int i = 0; i < seeds.size(); i++) {
      properties.add("tollgate.redis.cluster[" + i + "]=redis://:" + password + "@" + seeds.get(i));
    }
    properties.add("tollgate.redis.timeout=2s");
    return properties.toArray(String[]::new);
  }

  private static ConfigException configException(Throwable startupFailure) {
    Throwable failure = startupFailure;
    while (failure != null && !(failure instanceof ConfigException)) {
      failure = failure.getCause();
    }
    assertThat(failure).as("a ConfigException in %s", startupFailure).isNotNull();
    return (ConfigException) failure;
  }
}
