package io.tollgate.config;

import io.tollgate.llm.ProviderApi;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.FailurePolicy;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of CONFIG.md, the contract users copy, read to exactly what it says. */
class ConfigMdExampleTest {

  private final TollgateConfig config = Loaders.example();

  @Test
  void readsTheTopLevelKeys() {
    assertThat(config.mode()).isEqualTo(Mode.ENFORCE);
    assertThat(config.onLimit()).isEqualTo(OnLimit.REJECT);
    assertThat(config.maxWait()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.strict()).isFalse();
  }

  @Test
  void readsRedis() {
    RedisConfig redis = config.redis().orElseThrow();
    assertThat(redis.url()).contains(URI.create("redis://127.0.0.1:6379"));
    assertThat(redis.cluster()).isEmpty();
    assertThat(redis.isCluster()).isFalse();
    assertThat(redis.timeout()).isEqualTo(Duration.ofMillis(100));
    assertThat(redis.onFailure()).isEqualTo(FailurePolicy.FAIL_OPEN);
    assertThat(redis.localShare()).isEqualTo(1.0);
    assertThat(redis.poolSize()).isEqualTo(32);
    assertThat(redis.reservationTtl()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void readsProvidersInTheOrderWritten() {
    assertThat(config.providers()).containsOnlyKeys("openai", "backup");
    assertThat(List.copyOf(config.providers().keySet())).containsExactly("openai", "backup");
  }

  @Test
  void readsThePrimaryProvider() {
    ProviderConfig openai = config.provider("openai").orElseThrow();
    assertThat(openai.name()).isEqualTo("openai");
    assertThat(openai.baseUrl()).isEqualTo(URI.create("https://api.openai.com"));
    assertThat(openai.api()).isEqualTo(ProviderApi.OPENAI);
    assertThat(openai.apiKey().orElseThrow().reveal()).isEqualTo(Loaders.OPENAI_KEY);
    assertThat(openai.limits().requestsPerSecond()).isEmpty();
    assertThat(openai.limits().requestsPerMinute()).hasValue(500);
    assertThat(openai.limits().requestsPerHour()).isEmpty();
    assertThat(openai.limits().requestsPerDay()).isEmpty();
    assertThat(openai.limits().tokensPerSecond()).isEmpty();
    assertThat(openai.limits().tokensPerMinute()).hasValue(200_000);
    assertThat(openai.limits().tokensPerHour()).isEmpty();
    assertThat(openai.limits().tokensPerDay()).hasValue(20_000_000);
    assertThat(openai.limits().algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(openai.fallbacks()).containsExactly("backup");
    assertThat(openai.modelMap()).isEmpty();
  }

  @Test
  void readsTheFallbackProvider() {
    ProviderConfig backup = config.provider("backup").orElseThrow();
    assertThat(backup.name()).isEqualTo("backup");
    assertThat(backup.baseUrl()).isEqualTo(URI.create("http://127.0.0.1:9002"));
    assertThat(backup.api()).isEqualTo(ProviderApi.OPENAI);
    assertThat(backup.apiKey().orElseThrow().reveal()).isEqualTo(Loaders.BACKUP_KEY);
    assertThat(backup.limits().isEmpty()).isTrue();
    assertThat(backup.fallbacks()).isEmpty();
    assertThat(backup.modelMap()).containsExactly(Map.entry("gpt-4o", "gpt-4o-mini"));
  }

  @Test
  void readsTenantsAndMergesTheOverride() {
    TenantsConfig tenants = config.tenants().orElseThrow();
    assertThat(tenants.header()).contains("X-Tenant-Id");
    assertThat(tenants.apiKeyHeader()).isEmpty();
    assertThat(tenants.limits()).isEqualTo(LimitsConfig.builder()
        .requestsPerMinute(60).tokensPerMinute(40_000).tokensPerDay(1_000_000).build());
    assertThat(tenants.overrides()).containsExactly(
        Map.entry("premium", LimitsConfig.builder().requestsPerMinute(600).build()));
    assertThat(tenants.limitsFor("premium")).isEqualTo(LimitsConfig.builder()
        .requestsPerMinute(600).tokensPerMinute(40_000).tokensPerDay(1_000_000).build());
    assertThat(tenants.limitsFor("anyone-else")).isEqualTo(tenants.limits());
  }

  @Test
  void readsBreakerAndTokens() {
    assertThat(config.breaker().failures()).isEqualTo(3);
    assertThat(config.breaker().window()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.breaker().openFor()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.breaker().maxOpenFor()).isEqualTo(Duration.ofMinutes(5));
    assertThat(config.tokens().defaultMaxOutput()).isEqualTo(1024);
  }

  @Test
  void givesTheLimiterItsLimits() {
    assertThat(config.provider("openai").orElseThrow().limits().toLimits()).isEqualTo(Limits.of(
        Limit.requests(500, Duration.ofMinutes(1)),
        Limit.tokens(200_000, Duration.ofMinutes(1)),
        Limit.tokens(20_000_000, Duration.ofDays(1))));
    assertThat(config.tenants().orElseThrow().limitsFor("premium").toLimits()).isEqualTo(Limits.of(
        Limit.requests(600, Duration.ofMinutes(1)),
        Limit.tokens(40_000, Duration.ofMinutes(1)),
        Limit.tokens(1_000_000, Duration.ofDays(1))));
  }

  @Test
  void equalsTheSameConfigurationBuiltInCode() {
    TollgateConfig built = TollgateConfig.builder()
        .mode(Mode.ENFORCE)
        .onLimit(OnLimit.REJECT)
        .maxWait(Duration.ofSeconds(2))
        .strict(false)
        .redis(RedisConfig.builder()
            .url("redis://127.0.0.1:6379")
            .timeout(Duration.ofMillis(100))
            .onFailure(FailurePolicy.FAIL_OPEN)
            .localShare(1.0)
            .build())
        .provider(ProviderConfig.builder("openai")
            .baseUrl("https://api.openai.com")
            .api(ProviderApi.OPENAI)
            .apiKey(Loaders.OPENAI_KEY)
            .limits(LimitsConfig.builder()
                .requestsPerMinute(500).tokensPerMinute(200_000).tokensPerDay(20_000_000).build())
            .fallbacks(List.of("backup"))
            .build())
        .provider(ProviderConfig.builder("backup")
            .baseUrl("http://127.0.0.1:9002")
            .api(ProviderApi.OPENAI)
            .apiKey(Loaders.BACKUP_KEY)
            .modelMap(Map.of("gpt-4o", "gpt-4o-mini"))
            .build())
        .tenants(TenantsConfig.builder()
            .header("X-Tenant-Id")
            .limits(LimitsConfig.builder()
                .requestsPerMinute(60).tokensPerMinute(40_000).tokensPerDay(1_000_000).build())
            .override("premium", LimitsConfig.builder().requestsPerMinute(600).build())
            .build())
        .breaker(BreakerConfig.builder()
            .failures(3).window(Duration.ofSeconds(10)).openFor(Duration.ofSeconds(30)).build())
        .tokens(TokensConfig.builder().defaultMaxOutput(1024).build())
        .build();

    assertThat(config).isEqualTo(built);
    assertThat(config.hashCode()).isEqualTo(built.hashCode());
  }

  @Test
  void printsEverySettingButNoApiKey() {
    assertThat(config.toString()).isEqualTo("tollgate{mode=enforce, on-limit=reject, max-wait=2s,"
        + " strict=false, redis={url=redis://127.0.0.1:6379, timeout=100ms, on-failure=fail-open,"
        + " local-share=1.0, pool-size=32, reservation-ttl=10m},"
        + " providers={openai={base-url=https://api.openai.com, api=openai, api-key=***,"
        + " limits={requests-per-minute=500, tokens-per-minute=200000, tokens-per-day=20000000},"
        + " fallbacks=[backup]}, backup={base-url=http://127.0.0.1:9002, api=openai, api-key=***,"
        + " model-map={gpt-4o=gpt-4o-mini}}},"
        + " tenants={header=X-Tenant-Id, limits={requests-per-minute=60, tokens-per-minute=40000,"
        + " tokens-per-day=1000000}, overrides={premium={requests-per-minute=600}}},"
        + " breaker={failures=3, window=10s, open-for=30s, max-open-for=5m}, tokens={default-max-output=1024, max-buffered-body=1MB}}");
    assertThat(config.toString()).doesNotContain(Loaders.OPENAI_KEY, Loaders.BACKUP_KEY);
  }

  @Test
  void loadsTheSameFromAFilePath(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("tollgate.yaml");
    Files.writeString(file, exampleText());

    assertThat(Loaders.with(Loaders.EXAMPLE_ENV).load(file.toString())).isEqualTo(config);
    assertThat(Loaders.with(Loaders.EXAMPLE_ENV).load(file)).isEqualTo(config);
  }

  /** The copy in test resources must stay the contract's own example. */
  @Test
  void testResourceIsTheExampleOfConfigMd() throws IOException {
    Path contract = Path.of("..", "..", "shared", "CONFIG.md");
    assumeTrue(Files.exists(contract), "../shared/CONFIG.md beside the project");
    String markdown = Files.readString(contract);
    int start = markdown.indexOf("```yaml\n") + "```yaml\n".length();
    String example = markdown.substring(start, markdown.indexOf("```", start));

    assertThat(exampleText()).isEqualTo(example);
  }

  private static String exampleText() throws IOException {
    try (InputStream in = ConfigMdExampleTest.class.getResourceAsStream("config-md-example.yaml")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
