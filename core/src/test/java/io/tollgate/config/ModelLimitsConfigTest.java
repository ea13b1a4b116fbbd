package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code providers.<p>.models} and {@code learn-limits}: read from YAML and properties, refused by key. */
class ModelLimitsConfigTest {

  private static String provider(String body) {
    return "tollgate:\n  providers:\n    openai:\n      base-url: https://api.openai.com\n" + body;
  }

  @Test
  void aModelNameWithDotsIsWrittenInBracketsInProperties() {
    TollgateConfig config = Loaders.properties(Map.of(
        "tollgate.providers.openai.base-url", "https://api.openai.com",
        "tollgate.providers.openai.models[gpt-4.1].requests-per-minute", "500",
        "tollgate.providers.openai.models[*].tokens-per-minute", "1000",
        "tollgate.providers.openai.learn-limits", "false"));

    ProviderConfig openai = config.provider("openai").orElseThrow();
    assertThat(openai.modelLimits("gpt-4.1").requestsPerMinute()).hasValue(500);
    assertThat(openai.modelLimits("gpt-4.1").tokensPerMinute()).isEmpty();
    assertThat(openai.modelLimits("gpt-4o").tokensPerMinute()).hasValue(1000);
    assertThat(openai.learnLimits()).isFalse();
  }

  @Test
  void withoutModelsEveryModelHasNoLimitOfItsOwn() {
    ProviderConfig openai = Loaders.yaml(provider("")).provider("openai").orElseThrow();

    assertThat(openai.models()).isEmpty();
    assertThat(openai.modelLimits("gpt-4o").isEmpty()).isTrue();
    assertThat(openai.learnLimits()).isTrue();
  }

  @Test
  void aBadLimitUnderAModelNamesItsFullKey() {
    assertThatThrownBy(() -> Loaders.yaml(provider(
        "      models:\n        gpt-4o: { requests-per-minute: -5 }\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("tollgate.providers.openai.models.gpt-4o.requests-per-minute")
        .hasMessageContaining("must be > 0, was -5");
  }

  @Test
  void anUnknownKeyUnderAModelIsNamed() {
    assertThatThrownBy(() -> Loaders.yaml(provider(
        "      models:\n        gpt-4o: { request-per-minute: 5 }\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("tollgate.providers.openai.models.gpt-4o.request-per-minute")
        .hasMessageContaining("is not a known key; did you mean requests-per-minute?");
  }

  @Test
  void theSameModelTwiceInAnotherCaseIsRefused() {
    assertThatThrownBy(() -> Loaders.yaml(provider(
        "      models:\n        gpt-4o: { requests-per-minute: 5 }\n        GPT-4o: { requests-per-minute: 6 }\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("tollgate.providers.openai.models.GPT-4o")
        .hasMessageContaining("repeats a model in another case");
  }

  @Test
  void learnLimitsTakesOnlyABoolean() {
    assertThatThrownBy(() -> Loaders.yaml(provider("      learn-limits: maybe\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("tollgate.providers.openai.learn-limits");
  }
}
