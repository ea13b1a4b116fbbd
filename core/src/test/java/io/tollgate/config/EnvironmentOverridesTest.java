package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code TOLLGATE_...} variables override the key they are named after. */
class EnvironmentOverridesTest {

  private static TollgateConfig example(Map<String, String> overrides) {
    Map<String, String> environment = new HashMap<>(Loaders.EXAMPLE_ENV);
    environment.putAll(overrides);
    return Loaders.with(environment).load(Loaders.EXAMPLE);
  }

  @Test
  void overridesTopLevelKeys() {
    TollgateConfig config = example(Map.of("TOLLGATE_MODE", "shadow", "TOLLGATE_MAX_WAIT", "500ms"));

    assertThat(config.mode()).isEqualTo(Mode.SHADOW);
    assertThat(config.maxWait()).hasMillis(500);
  }

  @Test
  void overridesANestedKey() {
    TollgateConfig config = example(Map.of("TOLLGATE_REDIS_URL", "rediss://cache.internal:6380"));

    assertThat(config.redis().orElseThrow().url()).contains(URI.create("rediss://cache.internal:6380"));
  }

  @Test
  void addsRedisToAConfigurationWithout() {
    TollgateConfig config = Loaders.yaml("tollgate:\n  mode: enforce\n",
        Map.of("TOLLGATE_REDIS_URL", "redis://cache:6379", "TOLLGATE_REDIS_TIMEOUT", "50ms"));

    assertThat(config.redis().orElseThrow().url()).contains(URI.create("redis://cache:6379"));
    assertThat(config.redis().orElseThrow().timeout()).hasMillis(50);
  }

  @Test
  void overridesAKeyOfAConfiguredProviderOrTenant() {
    TollgateConfig config = example(Map.of(
        "TOLLGATE_PROVIDERS_OPENAI_LIMITS_TOKENS_PER_MINUTE", "100000",
        "TOLLGATE_PROVIDERS_OPENAI_API_KEY", "sk-from-env",
        "TOLLGATE_TENANTS_OVERRIDES_PREMIUM_TOKENS_PER_DAY", "5000000",
        "TOLLGATE_PROVIDERS_BACKUP_MODEL_MAP_GPT_4O", "gpt-4.1-mini"));

    ProviderConfig openai = config.provider("openai").orElseThrow();
    assertThat(openai.limits().tokensPerMinute()).hasValue(100_000);
    assertThat(openai.limits().requestsPerMinute()).hasValue(500);
    assertThat(openai.apiKey().orElseThrow().reveal()).isEqualTo("sk-from-env");
    assertThat(config.tenants().orElseThrow().limitsFor("premium").tokensPerDay()).hasValue(5_000_000);
    assertThat(config.provider("backup").orElseThrow().modelMap()).containsEntry("gpt-4o", "gpt-4.1-mini");
  }

  @Test
  void takesSpringsSpellingWithoutDashes() {
    TollgateConfig config = example(Map.of("TOLLGATE_ONLIMIT", "wait"));

    assertThat(config.onLimit()).isEqualTo(OnLimit.WAIT);
  }

  @Test
  void rejectsBothSpellingsOfOneKey() {
    assertThatThrownBy(() -> example(Map.of("TOLLGATE_ON_LIMIT", "wait", "TOLLGATE_ONLIMIT", "reject")))
        .hasMessage("TOLLGATE_ON_LIMIT and TOLLGATE_ONLIMIT both set tollgate.on-limit; keep one of them");
  }

  @Test
  void aListTakesCommaSeparatedValues() {
    TollgateConfig config = Loaders.yaml("tollgate:\n",
        Map.of("TOLLGATE_REDIS_CLUSTER", "10.0.0.1:7000,10.0.0.2:7000"));

    assertThat(config.redis().orElseThrow().cluster())
        .containsExactly(new RedisNode("10.0.0.1", 7000), new RedisNode("10.0.0.2", 7000));
  }

  @Test
  void clusterUrlsWithALoginComeThroughTheEnvironmentToo() {
    TollgateConfig config = Loaders.yaml("tollgate:\n", Map.of("TOLLGATE_REDIS_CLUSTER",
        "rediss://app:s3cret@10.0.0.1:7000,rediss://app:s3cret@10.0.0.2:7000"));

    RedisConfig redis = config.redis().orElseThrow();
    assertThat(redis.cluster())
        .containsExactly(new RedisNode("10.0.0.1", 7000), new RedisNode("10.0.0.2", 7000));
    assertThat(redis.tls()).isTrue();
    assertThat(redis.user()).contains("app");
    assertThat(redis.password().orElseThrow().reveal()).isEqualTo("s3cret");
  }

  @Test
  void overridesPropertiesToo() {
    TollgateConfig config = Loaders.with(Map.of("TOLLGATE_STRICT", "true"))
        .fromProperties(Map.of("tollgate.strict", "false"));

    assertThat(config.strict()).isTrue();
  }

  @Test
  void aBadOverrideValueNamesTheKey() {
    assertThatThrownBy(() -> example(Map.of("TOLLGATE_MODE", "bogus")))
        .hasMessage("tollgate.mode must be one of enforce, shadow, advisory, canary, off, was bogus");
  }

  @Test
  void anOverrideValueIsTakenLiterally() {
    TollgateConfig config = example(Map.of("TOLLGATE_PROVIDERS_OPENAI_API_KEY", "sk-${X}"));

    assertThat(config.provider("openai").orElseThrow().apiKey().orElseThrow().reveal()).isEqualTo("sk-${X}");
  }

  @Test
  void aMisspeltVariableFailsWithTheIntendedName() {
    assertThatThrownBy(() -> example(Map.of("TOLLGATE_REDIS_URLL", "redis://cache:6379")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("TOLLGATE_REDIS_URLL is set but matches no configuration key; did you mean TOLLGATE_REDIS_URL?");
  }

  @Test
  void aVariableForAProviderNotInTheFileFails() {
    assertThatThrownBy(() -> example(Map.of("TOLLGATE_PROVIDERS_ANTHROPIC_BASE_URL", "https://api.anthropic.com")))
        .hasMessage("TOLLGATE_PROVIDERS_ANTHROPIC_BASE_URL is set but matches no configuration key;"
            + " variables override keys (TOLLGATE_REDIS_URL for tollgate.redis.url), and entries of"
            + " providers, tenants.overrides and model-map only when the file has them");
  }

  @Test
  void theConfigLocationVariableIsNotAnOverride() {
    assertThat(example(Map.of("TOLLGATE_CONFIG", "/etc/tollgate.yaml"))).isEqualTo(Loaders.example());
  }

  @Test
  void overridesCanBeTurnedOff() {
    Map<String, String> environment = new HashMap<>(Loaders.EXAMPLE_ENV);
    environment.put("TOLLGATE_MODE", "off");
    environment.put("TOLLGATE_NOT_A_KEY", "x");
    TollgateConfig config = TollgateConfigLoader.builder()
        .environment(environment)
        .environmentOverrides(false)
        .build()
        .load(Loaders.EXAMPLE);

    assertThat(config).isEqualTo(Loaders.example());
  }

  @Test
  void namesAVariableAfterItsKey() {
    assertThat(ConfigEnvironment.variableName("tollgate.providers.my-llm.api-key", false))
        .isEqualTo("TOLLGATE_PROVIDERS_MY_LLM_API_KEY");
    assertThat(ConfigEnvironment.variableName("tollgate.providers.my-llm.api-key", true))
        .isEqualTo("TOLLGATE_PROVIDERS_MYLLM_APIKEY");
    assertThat(ConfigEnvironment.variableName("tollgate.tenants.overrides.acme.com.requests-per-minute", false))
        .isEqualTo("TOLLGATE_TENANTS_OVERRIDES_ACME_COM_REQUESTS_PER_MINUTE");
  }
}
