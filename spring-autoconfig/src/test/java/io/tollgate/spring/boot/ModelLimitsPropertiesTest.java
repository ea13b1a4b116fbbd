package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.ConfigException;
import io.tollgate.config.ProviderConfig;
import io.tollgate.config.TollgateConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code tollgate.providers.<p>.models} and {@code learn-limits} bind through Spring's properties. */
class ModelLimitsPropertiesTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurationTest.TOLLGATE)
      .withPropertyValues("tollgate.providers.openai.base-url=http://127.0.0.1:9/v1");

  @Test
  void modelsWithDotsInBracketsAndTheStarBind() {
    runner.withPropertyValues(
            "tollgate.providers.openai.models[gpt-4.1].requests-per-minute=500",
            "tollgate.providers.openai.models[gpt-4.1].tokens-per-minute=30000",
            "tollgate.providers.openai.models[*].requests-per-minute=100",
            "tollgate.providers.openai.learn-limits=false")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ProviderConfig openai = context.getBean(TollgateConfig.class).providers().get("openai");
          assertThat(openai.models()).containsOnlyKeys("gpt-4.1", "*");
          assertThat(openai.modelLimits("gpt-4.1").tokensPerMinute()).hasValue(30_000);
          assertThat(openai.modelLimits("o3").requestsPerMinute()).hasValue(100);
          assertThat(openai.learnLimits()).isFalse();
        });
  }

  @Test
  void learnLimitsIsOnByDefault() {
    runner.run(context -> assertThat(context.getBean(TollgateConfig.class)
        .providers().get("openai").learnLimits()).isTrue());
  }

  @Test
  void aBadModelLimitFailsNamingItsKey() {
    runner.withPropertyValues("tollgate.providers.openai.models[gpt-4o].requests-per-minute=0")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause()
              .isInstanceOf(ConfigException.class)
              .hasMessage("tollgate.providers.openai.models.gpt-4o.requests-per-minute must be > 0, was 0");
        });
  }
}
