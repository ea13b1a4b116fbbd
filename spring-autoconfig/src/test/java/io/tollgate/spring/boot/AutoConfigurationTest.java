package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.ConfigException;
import io.tollgate.limiter.LimiterHealth;
import io.tollgate.redis.RedisConnection;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Gate;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.MicroClock;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.router.FailureKind;
import io.tollgate.router.ProviderBreaker;
import io.tollgate.router.ProviderBreakers;
import io.tollgate.servlet.TollgateFilter;
import io.tollgate.spring.boot.actuate.TollgateEndpoint;
import io.tollgate.spring.boot.actuate.TollgateHealth;
import io.tollgate.spring.boot.client.TollgateClientHttpRequestInterceptor;
import io.tollgate.spring.boot.client.WebClientHook;
import io.tollgate.testkit.redis.RedisServer;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.ApplicationContextAssertProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

/** Every condition of the auto-configuration, one context each. */
class AutoConfigurationTest {

  static final RedisServer redis = RedisServer.start();

  static final AutoConfigurations TOLLGATE = AutoConfigurations.of(TollgateAutoConfiguration.class,
      TollgateServletFilterAutoConfiguration.class, TollgateClientsAutoConfiguration.class,
      TollgateActuatorAutoConfiguration.class);

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(TOLLGATE)
      .withPropertyValues("tollgate.providers.openai.base-url=http://127.0.0.1:9/v1");

  private final WebApplicationContextRunner webRunner = new WebApplicationContextRunner()
      .withConfiguration(TOLLGATE)
      .withPropertyValues("tollgate.tenants.header=X-Tenant-Id",
          "tollgate.tenants.limits.requests-per-hour=3");

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @Test
  void withoutRedisLimitsInMemory() {
    runner.run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(RateLimiter.class)).isNotInstanceOf(LimiterHealth.class);
      assertThat(context).doesNotHaveBean(RedisConnection.class);
      assertThat(context.getBean(TollgateConfig.class).redis()).isEmpty();
      assertThat(context.getBean(Gate.class).limiter()).isSameAs(context.getBean(RateLimiter.class));
      assertThat(context.getBean(ProviderBreakers.class).isShared()).isFalse();
    });
  }

  @Test
  void withRedisLimitsInRedis() {
    runner.withPropertyValues("tollgate.redis.url=" + redis.uri()).run(context -> {
      assertThat(context).hasNotFailed();
      RateLimiter limiter = context.getBean(RateLimiter.class);
      assertThat(limiter).isInstanceOf(LimiterHealth.class);
      assertThat(context).hasSingleBean(RedisConnection.class);

      Subject subject = Subject.of("tenant", "acme");
      assertThat(limiter.reserve(subject, Limits.of(Limit.requests(5, Duration.ofHours(1))), 1, 0)
          .remainingRequests()).isEqualTo(4);
      assertThat(redis.jedis().keys("tg:" + subject.hashTag() + ":*")).isNotEmpty();
      assertThat(redis.jedis().keys("*acme*")).isEmpty();
    });
  }

  /**
   * The Redis tests here run on the Jedis that Boot's BOM manages (6.0 in Boot 3.5, 7.0 in Boot
   * 4.0), as in an app that adds only the starter; the core itself builds on Jedis 8.
   */
  @Test
  void runsOnTheJedisLineBootManages() throws IOException {
    Map<String, String> jedisLineOfBootLine = Map.of("3.5", "6.0", "4.0", "7.0");
    String bootLine = SpringBootVersion.getVersion().substring(0, 3);
    assertThat(jedisLineOfBootLine).containsKey(bootLine);
    assertThat(jedisVersionOnClassPath()).startsWith(jedisLineOfBootLine.get(bootLine) + ".");
  }

  @Test
  void appBeansReplaceTollgates() {
    RateLimiter own = RateLimiter.inMemory(MicroClock.system(), Duration.ofMinutes(1));
    runner.withBean("myLimiter", RateLimiter.class, () -> own).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBeansOfType(RateLimiter.class)).containsOnlyKeys("myLimiter");
      assertThat(context.getBean(Gate.class).limiter()).isSameAs(own);
    });
    TollgateConfig config = TollgateConfig.builder().build();
    runner.withBean(TollgateConfig.class, () -> config).run(context ->
        assertThat(context.getBean(Gate.class).config()).isSameAs(config));
  }

  @Test
  void disabledCreatesNothing() {
    webRunner.withPropertyValues("tollgate.enabled=false").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).doesNotHaveBean(TollgateConfig.class);
      assertThat(context).doesNotHaveBean(Gate.class);
      assertThat(context).doesNotHaveBean(RateLimiter.class);
      assertThat(context).doesNotHaveBean(TollgateFilter.class);
      assertThat(context).doesNotHaveBean(TollgateClientHttpRequestInterceptor.class);
      assertThat(context).doesNotHaveBean(WebClientHook.class);
      assertThat(context).doesNotHaveBean(TollgateEndpoint.class);
      assertThat(context).doesNotHaveBean(TollgateHealth.class);
    });
  }

  @Test
  void clientHooksAreRegisteredWithoutTheAgent() {
    runner.run(context -> {
      assertThat(context).hasSingleBean(TollgateClientHttpRequestInterceptor.class);
      assertThat(context).hasSingleBean(WebClientHook.class);
    });
    runner.withPropertyValues("tollgate.client.enabled=false").run(context -> {
      assertThat(context).doesNotHaveBean(TollgateClientHttpRequestInterceptor.class);
      assertThat(context).doesNotHaveBean(WebClientHook.class);
      assertThat(context).hasSingleBean(Gate.class);
    });
  }

  @Test
  void withoutWebFluxOnlyTheRestClientsAreHooked() {
    runner.withClassLoader(new FilteredClassLoader("org.springframework.web.reactive")).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).hasSingleBean(TollgateClientHttpRequestInterceptor.class);
      assertThat(context).doesNotHaveBean(WebClientHook.class);
    });
  }

  @Test
  void healthStaysUpUnderFailOpenWhileRedisIsUnreachableOrBreakersAreOpen() {
    RedisServer own = RedisServer.start();
    try {
      runner.withPropertyValues("tollgate.redis.url=" + own.uri()).run(context -> {
        TollgateHealth health = context.getBean(TollgateHealth.class);
        TollgateHealth.Report up = health.check();
        assertThat(up.up()).isTrue();
        assertThat(up.details()).isEqualTo(Map.of("mode", "enforce", "limiter", "redis", "onFailure", "fail-open",
            "redisReachable", true, "limiterDegraded", false, "degraded", false,
            "breakers", Map.of("openai", "closed"), "openBreakers", List.of()));

        ProviderBreaker breaker = context.getBean(Gate.class).breakers().breaker("openai");
        for (int i = 0; i < 3; i++) {
          assertThat(breaker.tryAcquirePermission()).isTrue();
          breaker.onFailure(FailureKind.SERVER_ERROR);
        }
        TollgateHealth.Report open = health.check();
        assertThat(open.up()).as("open breakers mean fallbacks, not an outage").isTrue();
        assertThat(open.details()).containsEntry("degraded", true)
            .containsEntry("reason", "open provider breakers: openai (their calls go to fallbacks)")
            .containsEntry("openBreakers", List.of("openai"))
            .containsEntry("breakers", Map.of("openai", "open"));

        own.stop();
        TollgateHealth.Report unreachable = health.check();
        assertThat(unreachable.up()).as("fail-open: the limiter decides locally").isTrue();
        assertThat(unreachable.details()).containsEntry("redisReachable", false).containsEntry("degraded", true)
            .containsEntry("reason", "Redis unreachable: deciding locally with 1.0 of each limit (on-failure: fail-open); "
                + "open provider breakers: openai (their calls go to fallbacks)");
      });
    } finally {
      own.close();
    }
  }

  @Test
  void healthUnderFailClosedIsDownOnlyWhileItEnforces() {
    RedisServer own = RedisServer.start();
    own.stop();
    try {
      ApplicationContextRunner failClosed = runner.withPropertyValues("tollgate.redis.url=" + own.uri(),
          "tollgate.redis.on-failure=fail-closed");
      failClosed.run(context -> {
        TollgateHealth.Report down = context.getBean(TollgateHealth.class).check();
        assertThat(down.up()).isFalse();
        assertThat(down.details()).containsEntry("redisReachable", false).containsEntry("degraded", true)
            .containsEntry("reason", "Redis unreachable: denying every limited call until it answers (on-failure: fail-closed)");
      });
      failClosed.withPropertyValues("tollgate.mode=shadow").run(context -> {
        TollgateHealth.Report shadow = context.getBean(TollgateHealth.class).check();
        assertThat(shadow.up()).as("shadow mode refuses nothing").isTrue();
        assertThat(shadow.details()).containsEntry("degraded", true)
            .containsEntry("reason", "Redis unreachable: its denials are not enforced in mode shadow (on-failure: fail-closed)");
      });
    } finally {
      own.close();
    }
  }

  @Test
  void filterIsRegisteredInServletAppsWithTenants() {
    webRunner.withPropertyValues("tollgate.filter.url-patterns=/api/*,/v1/*", "tollgate.filter.order=5")
        .run(context -> {
          assertThat(context).hasNotFailed();
          FilterRegistrationBean<?> registration =
              context.getBean("tollgateFilterRegistration", FilterRegistrationBean.class);
          assertThat(registration.getFilter()).isSameAs(context.getBean(TollgateFilter.class));
          assertThat(registration.getUrlPatterns()).containsExactly("/api/*", "/v1/*");
          assertThat(registration.getOrder()).isEqualTo(5);
        });
    webRunner.run(context -> {
      FilterRegistrationBean<?> registration = context.getBean("tollgateFilterRegistration", FilterRegistrationBean.class);
      assertThat(registration.getUrlPatterns()).containsExactly("/*");
      assertThat(registration.determineDispatcherTypes()).containsExactly(DispatcherType.REQUEST, DispatcherType.ASYNC);
    });
  }

  @Test
  void filterNeedsTenantsAServletAppAndItsSwitch() {
    new WebApplicationContextRunner().withConfiguration(TOLLGATE)
        .run(context -> assertThat(context).doesNotHaveBean(TollgateFilter.class).hasSingleBean(Gate.class));
    runner.withPropertyValues("tollgate.tenants.header=X-Tenant-Id")
        .run(context -> assertThat(context).doesNotHaveBean(TollgateFilter.class));
    webRunner.withPropertyValues("tollgate.filter.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(TollgateFilter.class));
  }

  @Test
  void aProviderMayAllowItsApiKeyOverPlainHttp() {
    runner.withPropertyValues("tollgate.providers.openai.base-url=http://10.0.0.7:9002",
            "tollgate.providers.openai.api-key=sk-test", "tollgate.providers.openai.allow-insecure=true")
        .run(context -> assertThat(context.getBean(TollgateConfig.class).provider("openai").orElseThrow().allowInsecure())
            .isTrue());
  }

  @Test
  void credentialHeadersReachTheConfigurationLowerCased() {
    runner.withPropertyValues("tollgate.credential-headers=X-My-Gateway-Key,helicone-auth")
        .run(context -> assertThat(context.getBean(TollgateConfig.class).credentialHeaders())
            .containsExactly("x-my-gateway-key", "helicone-auth"));
    runner.withPropertyValues("tollgate.credential-headers[0]=cf-aig-authorization")
        .run(context -> assertThat(context.getBean(Gate.class).crossOriginHeaders().credentialHeaders())
            .containsExactly("cf-aig-authorization"));
  }

  @Test
  void badValuesFailNamingTheirFullKey() {
    assertFailure(runner.withPropertyValues("tollgate.providers.openai.limits.requests-per-minute=-5"),
        "tollgate.providers.openai.limits.requests-per-minute", "must be > 0, was -5");
    assertFailure(runner.withPropertyValues("tollgate.redis.timeout=1s"),
        "tollgate.redis.url", "or cluster is required when redis is configured");
    assertFailure(runner.withPropertyValues("tollgate.redis.url=" + redis.uri(), "tollgate.redis.local-share=1.5"),
        "tollgate.redis.local-share", "must be in (0, 1], was 1.5");
    assertFailure(runner.withPropertyValues("tollgate.providers.openai.fallbacks=nowhere"),
        "tollgate.providers.openai.fallbacks[0]", "must name a configured provider, was nowhere; no other provider is configured");
    assertFailure(runner.withPropertyValues("tollgate.providers.openai.base-url=ftp://example.com"),
        "tollgate.providers.openai.base-url", "must be an absolute http or https URL, was ftp://example.com");
    assertFailure(runner.withPropertyValues("tollgate.providers.openai.base-url=http://10.0.0.7:9002",
            "tollgate.providers.openai.api-key=sk-test"),
        "tollgate.providers.openai.base-url", "must be https:// when the provider has an api-key"
            + " (or set tollgate.providers.openai.allow-insecure: true), was http://10.0.0.7:9002");
    assertFailure(runner.withPropertyValues("tollgate.tenants.limits.tokens-per-day=1000"),
        "tollgate.tenants.header", "or api-key-header is required when tenants is configured: it says who the tenant is");
    assertFailure(runner.withPropertyValues("tollgate.tenants.header=X-T", "tollgate.tenants.overrides.premium.tokens-per-day=0"),
        "tollgate.tenants.overrides.premium.tokens-per-day", "must be > 0, was 0");
    assertFailure(runner.withPropertyValues("tollgate.credential-headers[0]=x ok"),
        "tollgate.credential-headers[0]", "must be a header name (letters, digits and !#$%&'*+-.^_`|~), was x ok");
    assertFailure(webRunner.withPropertyValues("tollgate.filter.missing-tenant=allow"),
        "tollgate.filter.missing-tenant", "must be reject or default:<tenant id>, was allow");
  }

  private static void assertFailure(ApplicationContextRunner runner, String key, String problem) {
    runner.run(context -> assertConfigFailure(context, key, problem));
  }

  private static void assertFailure(WebApplicationContextRunner runner, String key, String problem) {
    runner.run(context -> assertConfigFailure(context, key, problem));
  }

  private static void assertConfigFailure(ApplicationContextAssertProvider<?> context, String key, String problem) {
    assertThat(context).hasFailed();
    ConfigException error = configException(context.getStartupFailure());
    assertThat(List.of(error.key(), error.problem())).containsExactly(key, problem);
  }

  private static ConfigException configException(Throwable startupFailure) {
    Throwable failure = startupFailure;
    while (failure != null && !(failure instanceof ConfigException)) {
      failure = failure.getCause();
    }
    assertThat(failure).as("a ConfigException in %s", startupFailure).isNotNull();
    return (ConfigException) failure;
  }

  private static String jedisVersionOnClassPath() throws IOException {
    try (InputStream in = RedisConnection.class.getClassLoader()
        .getResourceAsStream("META-INF/maven/redis.clients/jedis/pom.properties")) {
      assertThat(in).as("Jedis's pom.properties").isNotNull();
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    }
  }
}
