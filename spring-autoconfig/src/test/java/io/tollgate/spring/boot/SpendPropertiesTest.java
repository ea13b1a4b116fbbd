package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.ConfigException;
import io.tollgate.config.TollgateConfig;
import io.tollgate.llm.Price;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Spend budgets and {@code tollgate.prices} bind through Spring's properties, refused by key. */
class SpendPropertiesTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurationTest.TOLLGATE)
      .withPropertyValues("tollgate.providers.openai.base-url=http://127.0.0.1:9/v1");

  @Test
  void budgetsAndPricesBind() {
    runner.withPropertyValues(
            "tollgate.providers.openai.limits.usd-per-month=2000",
            "tollgate.providers.openai.models[gpt-4o].usd-per-day=12.5",
            "tollgate.tenants.header=X-Tenant-Id",
            "tollgate.tenants.limits.usd-per-day=5.00",
            "tollgate.prices[gpt-4.1].input=2.00",
            "tollgate.prices[gpt-4.1].cached-input=0.50",
            "tollgate.prices[gpt-4.1].output=8.00")
        .run(context -> {
          assertThat(context).hasNotFailed();
          TollgateConfig config = context.getBean(TollgateConfig.class);
          assertThat(config.providers().get("openai").limits().usdPerMonthMicros()).hasValue(2_000_000_000L);
          assertThat(config.providers().get("openai").modelLimits("gpt-4o").usdPerDayMicros())
              .hasValue(12_500_000L);
          assertThat(config.tenants().orElseThrow().limits().usdPerDayMicros()).hasValue(5_000_000L);
          assertThat(config.prices()).containsEntry("gpt-4.1", Price.perMillion("2.00", "0.50", "8.00", null));
        });
  }

  @Test
  void aBudgetFinerThanAMicroDollarFailsNamingItsKey() {
    runner.withPropertyValues("tollgate.providers.openai.limits.usd-per-day=0.0000001")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause()
              .isInstanceOf(ConfigException.class)
              .hasMessage("tollgate.providers.openai.limits.usd-per-day may have at most 6 decimals"
                  + " (a micro-dollar), was 0.0000001");
        });
  }

  @Test
  void aPriceWithoutOutputFailsNamingItsKey() {
    runner.withPropertyValues("tollgate.prices.gpt-4o.input=2.5").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .isInstanceOf(ConfigException.class)
          .hasMessage("tollgate.prices.gpt-4o.output is required, in USD per million tokens");
    });
  }
}
