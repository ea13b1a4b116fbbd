package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limit;
import io.tollgate.llm.Price;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code usd-per-day}, {@code usd-per-month} and {@code prices}: read exactly, refused by key. */
class SpendConfigTest {

  private static final String PROVIDER =
      "tollgate:\n  providers:\n    openai:\n      base-url: https://api.openai.com\n";

  @Test
  void budgetsAreReadInDollarsAndCountedInMicroDollarsPerCalendarPeriod() {
    TollgateConfig config = Loaders.yaml(PROVIDER + """
              limits: { requests-per-minute: 500, usd-per-month: 2000 }
              models:
                gpt-4o: { usd-per-day: 12.345678 }
          tenants:
            header: X-Tenant-Id
            limits:
              usd-per-day: 5.00         # calendar day, UTC; usd-per-month: calendar month, UTC
            overrides:
              premium: { usd-per-day: 50 }
        """);

    ProviderConfig openai = config.provider("openai").orElseThrow();
    assertThat(openai.limits().usdPerMonthMicros()).hasValue(2_000_000_000L);
    assertThat(openai.modelLimits("gpt-4o").usdPerDayMicros()).hasValue(12_345_678L);
    assertThat(config.tenants().orElseThrow().limits().usdPerDayMicros()).hasValue(5_000_000L);
    assertThat(config.tenants().orElseThrow().limitsFor("premium").usdPerDayMicros()).hasValue(50_000_000L);
    Limit monthly = openai.limits().toLimits().all().stream()
        .filter(limit -> limit.dimension() == Dimension.SPEND).findFirst().orElseThrow();
    assertThat(monthly.monthly()).isTrue();
    assertThat(monthly.stateField()).isEqualTo("uc2678400000000");
    assertThat(openai.limits().toString()).isEqualTo("{requests-per-minute=500, usd-per-month=2000}");
  }

  @Test
  void pricesOverTheBundledTableAreReadPerModel() {
    TollgateConfig config = Loaders.yaml(PROVIDER + """
          prices:                       # USD per million tokens; a bundled table covers well-known models
            gpt-4o: { input: 2.50, cached-input: 1.25, output: 10.00 }
            chat-prod: { input: 3, output: 12, cache-write: 3.75 }
        """);

    assertThat(config.prices().get("gpt-4o"))
        .isEqualTo(Price.perMillion("2.50", "1.25", "10.00", null));
    assertThat(config.priceTable().of("chat-prod"))
        .contains(Price.perMillion("3", null, "12", "3.75"));
    assertThat(config.priceTable().of("gpt-4o-2024-08-06"))
        .contains(Price.perMillion("2.50", "1.25", "10.00", null));
  }

  @Test
  void aBudgetWithTooManyDecimalsOrNoNumberIsRefusedByKey() {
    assertThatThrownBy(() -> Loaders.yaml(PROVIDER + "      limits: { usd-per-day: 0.0000001 }\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.openai.limits.usd-per-day may have at most 6 decimals"
            + " (a micro-dollar), was 0.0000001");
    assertThatThrownBy(() -> Loaders.yaml(
        "tollgate:\n  tenants:\n    header: X\n    limits: { usd-per-day: five }\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.tenants.limits.usd-per-day must be an amount in US dollars such as"
            + " 5.00, was five");
    assertThatThrownBy(() -> Loaders.yaml(PROVIDER + "      limits: { usd-per-day: 0 }\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.openai.limits.usd-per-day must be > 0, was 0");
  }

  @Test
  void aBadPriceIsRefusedByItsFullKey() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  prices:\n    gpt-4o: { input: 2.5 }\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.prices.gpt-4o.output is required, in USD per million tokens");
    assertThatThrownBy(() -> Loaders.yaml(
        "tollgate:\n  prices:\n    gpt-4o: { input: 0.0000001, output: 1 }\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("tollgate.prices.gpt-4o.input may have at most 6 decimals");
    assertThatThrownBy(() -> Loaders.yaml(
        "tollgate:\n  prices:\n    gpt-4o: { input: 1, output: 1, cached_input: 1 }\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("tollgate.prices.gpt-4o.cached_input is not a known field");
  }

  @Test
  void propertiesTakeTheSameKeys() {
    TollgateConfig config = Loaders.properties(Map.of(
        "tollgate.providers.openai.base-url", "https://api.openai.com",
        "tollgate.providers.openai.limits.usd-per-day", "1.5",
        "tollgate.prices[gpt-4.1].input", "2.00",
        "tollgate.prices[gpt-4.1].output", "8.00"));

    assertThat(config.provider("openai").orElseThrow().limits().usdPerDayMicros()).hasValue(1_500_000L);
    assertThat(config.prices()).containsOnlyKeys("gpt-4.1");
  }
}
