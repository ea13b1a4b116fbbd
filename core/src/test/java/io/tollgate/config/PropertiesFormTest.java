package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Flat properties, as the Spring starter and the servlet filter give them, read like YAML. */
class PropertiesFormTest {

  /** The CONFIG.md example as properties. */
  static Map<String, String> exampleProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("tollgate.mode", "enforce");
    p.put("tollgate.on-limit", "reject");
    p.put("tollgate.max-wait", "2s");
    p.put("tollgate.strict", "false");
    p.put("tollgate.redis.url", "redis://127.0.0.1:6379");
    p.put("tollgate.redis.timeout", "100ms");
    p.put("tollgate.redis.on-failure", "fail-open");
    p.put("tollgate.redis.local-share", "1.0");
    p.put("tollgate.providers.openai.base-url", "https://api.openai.com");
    p.put("tollgate.providers.openai.api", "openai");
    p.put("tollgate.providers.openai.api-key", "${OPENAI_API_KEY}");
    p.put("tollgate.providers.openai.limits.requests-per-minute", "500");
    p.put("tollgate.providers.openai.limits.tokens-per-minute", "200000");
    p.put("tollgate.providers.openai.limits.tokens-per-day", "20000000");
    p.put("tollgate.providers.openai.fallbacks[0]", "backup");
    p.put("tollgate.providers.backup.base-url", "http://127.0.0.1:9002");
    p.put("tollgate.providers.backup.api", "openai");
    p.put("tollgate.providers.backup.api-key", "${BACKUP_API_KEY}");
    p.put("tollgate.providers.backup.model-map.gpt-4o", "gpt-4o-mini");
    p.put("tollgate.tenants.header", "X-Tenant-Id");
    p.put("tollgate.tenants.limits.requests-per-minute", "60");
    p.put("tollgate.tenants.limits.tokens-per-minute", "40000");
    p.put("tollgate.tenants.limits.tokens-per-day", "1000000");
    p.put("tollgate.tenants.overrides.premium.requests-per-minute", "600");
    p.put("tollgate.breaker.failures", "3");
    p.put("tollgate.breaker.window", "10s");
    p.put("tollgate.breaker.open-for", "30s");
    p.put("tollgate.tokens.default-max-output", "1024");
    return p;
  }

  @Test
  void theExampleAsPropertiesIsTheSameConfigurationAsTheYaml() {
    TollgateConfig fromProperties = Loaders.with(Loaders.EXAMPLE_ENV).fromProperties(exampleProperties());

    assertThat(fromProperties).isEqualTo(Loaders.example());
    assertThat(fromProperties.toString()).isEqualTo(Loaders.example().toString());
  }

  @Test
  void aListIsIndexedOrCommaSeparated() {
    Map<String, String> indexed = new LinkedHashMap<>();
    indexed.put("tollgate.redis.cluster[1]", "b:7001");
    indexed.put("tollgate.redis.cluster[0]", "a:7000");
    Map<String, String> commas = Map.of("tollgate.redis.cluster", "a:7000, b:7001");

    assertThat(Loaders.properties(indexed).redis().orElseThrow().cluster())
        .containsExactly(new RedisNode("a", 7000), new RedisNode("b", 7001));
    assertThat(Loaders.properties(commas)).isEqualTo(Loaders.properties(indexed));
  }

  @Test
  void aListWithAGapFails() {
    assertThatThrownBy(() -> Loaders.properties(Map.of(
        "tollgate.redis.cluster[0]", "a:7000", "tollgate.redis.cluster[2]", "c:7002")))
        .hasMessage("tollgate.redis.cluster[1] is missing: list indexes run 0, 1, 2, ... without gaps");
  }

  @Test
  void aListWithANamedItemFails() {
    assertThatThrownBy(() -> Loaders.properties(Map.of("tollgate.redis.cluster.first", "a:7000")))
        .hasMessage("tollgate.redis.cluster.first is not a list index: write tollgate.redis.cluster[0], [1], ...");
  }

  @Test
  void keysWithDotsGoInBrackets() {
    TollgateConfig config = Loaders.properties(Map.of(
        "tollgate.tenants.header", "X-Tenant-Id",
        "tollgate.tenants.overrides[acme.com].requests-per-minute", "600",
        "tollgate.providers.backup.base-url", "http://127.0.0.1:9002",
        "tollgate.providers.backup.model-map[gpt-3.5-turbo]", "gpt-4o-mini"));

    assertThat(config.tenants().orElseThrow().overrides()).containsOnlyKeys("acme.com");
    assertThat(config.provider("backup").orElseThrow().modelMap())
        .containsExactly(Map.entry("gpt-3.5-turbo", "gpt-4o-mini"));
  }

  @Test
  void aModelMapKeyMayKeepItsDots() {
    TollgateConfig config = Loaders.properties(Map.of(
        "tollgate.providers.backup.base-url", "http://127.0.0.1:9002",
        "tollgate.providers.backup.model-map.gpt-3.5-turbo", "gpt-4o-mini"));

    assertThat(config.provider("backup").orElseThrow().modelMap())
        .containsExactly(Map.entry("gpt-3.5-turbo", "gpt-4o-mini"));
  }

  @Test
  void modeFalseFromAYaml11ParserGetsAHint() {
    assertThatThrownBy(() -> Loaders.properties(Map.of("tollgate.mode", "false")))
        .hasMessage("tollgate.mode must be one of enforce, shadow, advisory, canary, off (an unquoted off can reach us as"
            + " false: write it 'off'), was false");
  }

  @Test
  void aNameBothValueAndSectionFails() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("tollgate.redis", "redis://cache:6379");
    p.put("tollgate.redis.url", "redis://cache:6379");

    assertThatThrownBy(() -> Loaders.properties(p)).hasMessage("tollgate.redis is both a value and a section");
  }

  @Test
  void aMalformedNameFails() {
    assertThatThrownBy(() -> Loaders.properties(Map.of("tollgate..mode", "off")))
        .hasMessage("tollgate..mode is not a property name: write dot-separated keys, [n] for list items,"
            + " [key] for keys with dots");
  }

  @Test
  void splitsNamesAtDotsAndBrackets() {
    assertThat(PropertiesTree.segments("tollgate.tenants.overrides[acme.com].requests-per-minute"))
        .containsExactly("tollgate", "tenants", "overrides", "acme.com", "requests-per-minute");
    assertThat(PropertiesTree.segments("tollgate.providers.openai.fallbacks[10]"))
        .containsExactly("tollgate", "providers", "openai", "fallbacks", "10");
    assertThat(PropertiesTree.segments("a[b][c].d")).containsExactly("a", "b", "c", "d");
  }

  @Test
  void keepsTheOrderOfProviders() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("tollgate.providers.zeta.base-url", "https://z.example");
    p.put("tollgate.providers.alpha.base-url", "https://a.example");

    assertThat(List.copyOf(Loaders.properties(p).providers().keySet())).containsExactly("zeta", "alpha");
  }
}
