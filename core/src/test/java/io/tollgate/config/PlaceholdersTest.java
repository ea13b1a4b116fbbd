package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code ${NAME}} and {@code ${NAME:default}} from the environment. */
class PlaceholdersTest {

  private static final String PROVIDER = """
      tollgate:
        providers:
          openai:
            base-url: https://api.openai.com
            api-key: %s
      """;

  @Test
  void replacesAVariable() {
    TollgateConfig config = Loaders.yaml(PROVIDER.formatted("${OPENAI_API_KEY}"),
        Map.of("OPENAI_API_KEY", "sk-live"));

    assertThat(config.provider("openai").orElseThrow().apiKey().orElseThrow().reveal()).isEqualTo("sk-live");
  }

  @Test
  void usesTheDefaultWhenTheVariableIsUnset() {
    TollgateConfig config = Loaders.yaml("""
        tollgate:
          mode: ${TOLLGATE_TEST_MODE:shadow}
          redis:
            url: ${REDIS_URL:redis://localhost:6379}
        """);

    assertThat(config.mode()).isEqualTo(Mode.SHADOW);
    assertThat(config.redis().orElseThrow().url()).contains(URI.create("redis://localhost:6379"));
  }

  @Test
  void prefersTheVariableToItsDefault() {
    TollgateConfig config = Loaders.yaml("tollgate:\n  mode: ${MODE:shadow}\n", Map.of("MODE", "off"));

    assertThat(config.mode()).isEqualTo(Mode.OFF);
  }

  @Test
  void anEmptyDefaultMakesTheApiKeyOptional() {
    TollgateConfig config = Loaders.yaml(PROVIDER.formatted("${OPENAI_API_KEY:}"));

    assertThat(config.provider("openai").orElseThrow().apiKey()).isEmpty();
  }

  @Test
  void replacesSeveralVariablesInsideAValue() {
    TollgateConfig config = Loaders.yaml("tollgate:\n  redis:\n    url: redis://${HOST}:${PORT:6380}/2\n",
        Map.of("HOST", "cache.internal"));

    assertThat(config.redis().orElseThrow().url()).contains(URI.create("redis://cache.internal:6380/2"));
  }

  @Test
  void doesNotScanAReplacementAgain() {
    TollgateConfig config = Loaders.yaml(PROVIDER.formatted("${KEY}"), Map.of("KEY", "sk-${NOT_A_VAR}"));

    assertThat(config.provider("openai").orElseThrow().apiKey().orElseThrow().reveal()).isEqualTo("sk-${NOT_A_VAR}");
  }

  @Test
  void anUnsetVariableWithoutDefaultFailsNamingKeyAndVariable() {
    assertThatThrownBy(() -> Loaders.yaml(PROVIDER.formatted("${OPENAI_API_KEY}")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.openai.api-key needs the environment variable OPENAI_API_KEY,"
            + " which is not set (write ${OPENAI_API_KEY:default} to give a default)");
  }

  @Test
  void anUnsetVariableInAListNamesTheItem() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  redis:\n    cluster: [a:7000, '${NODE_2}']\n"))
        .hasMessage("tollgate.redis.cluster[1] needs the environment variable NODE_2,"
            + " which is not set (write ${NODE_2:default} to give a default)");
  }

  @Test
  void anUnclosedPlaceholderFailsWithoutRepeatingTheValue() {
    assertThatThrownBy(() -> Loaders.yaml(PROVIDER.formatted("sk-secret-${OPENAI")))
        .hasMessage("tollgate.providers.openai.api-key has a ${ without its closing }");
  }

  @Test
  void aNestedPlaceholderIsRejected() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  mode: ${A:${B}}\n"))
        .hasMessage("tollgate.mode has a ${...} inside another; only ${NAME} and ${NAME:default} are supported");
  }

  @Test
  void aBadVariableNameIsRejected() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  mode: ${1ABC}\n"))
        .hasMessage("tollgate.mode has a ${...} whose name is not an environment variable name (letters, digits and _)");
  }

  @Test
  void worksInPropertiesToo() {
    TollgateConfig config = Loaders.with(Map.of("MAX_WAIT", "5s"))
        .fromProperties(Map.of("tollgate.max-wait", "${MAX_WAIT}", "tollgate.strict", "${STRICT:true}"));

    assertThat(config.maxWait()).hasSeconds(5);
    assertThat(config.strict()).isTrue();
  }
}
