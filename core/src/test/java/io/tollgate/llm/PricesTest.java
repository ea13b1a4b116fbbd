package io.tollgate.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class PricesTest {

  private static final Prices BUNDLED = Prices.bundled();
  private static final long MAX = TokenEstimate.MAX_TOKENS;

  private static Price price(String model) {
    return BUNDLED.of(model).orElseThrow();
  }

  private static Usage usage(long input, long output, long cacheRead, long cacheWrite) {
    return Usage.reported(input, output, cacheRead, cacheWrite, Optional.empty());
  }

  @Test
  void theBundledTableLoadsWithItsDateAndSources() {
    assertThat(BUNDLED.asOf()).isEqualTo(LocalDate.of(2026, 6, 21));
    assertThat(BUNDLED.sources()).contains("https://docs.anthropic.com/en/docs/about-claude/pricing");
    assertThat(BUNDLED.models()).hasSize(32).containsKeys("gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini",
        "gpt-4.1-nano", "o1", "o3", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-3.5-turbo",
        "text-embedding-3-small", "text-embedding-3-large", "claude-opus-4", "claude-opus-4-1", "claude-sonnet-4",
        "claude-sonnet-4-5", "claude-3-7-sonnet", "claude-3-5-sonnet", "claude-3-5-haiku", "claude-haiku-4-5",
        "claude-3-haiku", "claude-3-opus");
    assertThat(Prices.bundled()).isSameAs(BUNDLED);
  }

  @Test
  void theTableOfDocsPricesMdIsTheBundledTable() throws Exception {
    Path doc = Path.of("..", "docs", "prices.md");
    assumeTrue(Files.exists(doc), "docs/prices.md beside core/");
    Pattern row = Pattern.compile("^\\| `([^`]+)` \\| ([0-9.]+) \\| ([0-9.]+) \\| ([0-9.]+) \\| ([0-9.]+) \\|$",
        Pattern.MULTILINE);
    Map<String, Price> documented = new TreeMap<>();
    Matcher m = row.matcher(Files.readString(doc));
    while (m.find()) {
      documented.put(m.group(1), Price.perMillion(m.group(2), m.group(3), m.group(5), m.group(4)));
    }

    assertThat(documented).isEqualTo(BUNDLED.models());
    assertThat(Files.readString(doc)).contains("as of **" + BUNDLED.asOf() + "**");
  }

  @Test
  void holdsGpt4oFiguresExactlyAsPicoDollarsPerToken() {
    // 2.50 / 1.25 / 10.00 USD per million tokens; no cache-write price, so the input's
    assertThat(price("gpt-4o")).isEqualTo(new Price(2_500_000, 1_250_000, 10_000_000, 2_500_000));
    assertThat(price("gpt-4o")).hasToString(
        "Price[input=2.5, cached-input=1.25, output=10, cache-write=2.5 USD per million tokens]");
    assertThat(price("gpt-4o-mini").cachedInputPicoUsd()).isEqualTo(75_000);
    assertThat(price("gpt-5-nano").cachedInputPicoUsd()).isEqualTo(5_000);
  }

  @Test
  void holdsAnthropicCacheWritesAboveInputAndCacheReadsBelow() {
    assertThat(price("claude-sonnet-4")).isEqualTo(new Price(3_000_000, 300_000, 15_000_000, 3_750_000));
    assertThat(price("claude-3-haiku")).isEqualTo(new Price(250_000, 30_000, 1_250_000, 300_000));
  }

  @Test
  void aDatedOrSuffixedNameTakesItsLongestFamilysPrice() {
    assertThat(price("gpt-4o-2024-08-06")).isEqualTo(price("gpt-4o"));
    assertThat(price("gpt-4o-mini-2024-07-18")).isEqualTo(price("gpt-4o-mini")).isNotEqualTo(price("gpt-4o"));
    assertThat(price("claude-sonnet-4-20250514")).isEqualTo(price("claude-sonnet-4"));
    assertThat(price("claude-3-5-haiku-20241022")).isEqualTo(price("claude-3-5-haiku"));
    assertThat(price("claude-opus-4-5@20251101")).isEqualTo(price("claude-opus-4-5")).isNotEqualTo(price("claude-opus-4"));
    assertThat(price("claude-sonnet-4@20250514")).isEqualTo(price("claude-sonnet-4"));
    assertThat(price("o3-mini:eu")).isEqualTo(price("o3-mini")).isNotEqualTo(price("o3"));
  }

  @Test
  void anExactNameWinsOverItsFamily() {
    assertThat(price("gpt-4o-2024-05-13")).isEqualTo(new Price(5_000_000, 5_000_000, 15_000_000, 5_000_000));
  }

  @Test
  void aFamilyMatchesOnlyUpToASeparator() {
    assertThat(BUNDLED.of("gpt-4")).isEmpty();
    assertThat(BUNDLED.of("gpt-4omni")).isEmpty();
    assertThat(BUNDLED.of("o3x")).isEmpty();
    Price gpt4 = Price.perMillion("30", null, "60", null);
    assertThat(BUNDLED.withOverrides(Map.of("gpt-4", gpt4)).of("gpt-4o-2024-08-06")).contains(price("gpt-4o"));
  }

  @Test
  void anUnknownModelHasNoPrice() {
    assertThat(BUNDLED.of("llama-3-70b")).isEmpty();
    assertThat(BUNDLED.of("")).isEmpty();
    assertThat(BUNDLED.of("anthropic.claude-sonnet-4-20250514-v1:0")).isEmpty();
  }

  @Test
  void namesAreComparedWithoutRegardToCase() {
    assertThat(BUNDLED.of("GPT-4o-Mini-2024-07-18")).contains(price("gpt-4o-mini"));
    assertThat(BUNDLED.of("Claude-Sonnet-4")).contains(price("claude-sonnet-4"));
  }

  @Test
  void anOverrideReplacesTheEntryOfItsNameOrAddsOne() {
    Price cheaper = Price.perMillion("2.00", "1.00", "8.00", null);
    Price acme = Price.perMillion("0.1375", null, "0.55", null);
    Prices prices = BUNDLED.withOverrides(Map.of("GPT-4o", cheaper, "acme-llm", acme));

    assertThat(prices.of("gpt-4o-2024-08-06")).contains(cheaper);
    assertThat(prices.of("gpt-4o-mini")).contains(price("gpt-4o-mini"));
    assertThat(prices.of("ACME-LLM-v2")).contains(acme);
    assertThat(prices.models()).hasSize(33);
    assertThat(prices.asOf()).isEqualTo(BUNDLED.asOf());
    assertThat(BUNDLED.of("gpt-4o")).contains(new Price(2_500_000, 1_250_000, 10_000_000, 2_500_000));
    assertThat(BUNDLED.of("acme-llm")).isEmpty();
  }

  @Test
  void twoOverridesOfOneNameAreRefused() {
    Map<String, Price> overrides = new LinkedHashMap<>();
    overrides.put("gpt-4o", price("gpt-4o"));
    overrides.put("GPT-4O", price("gpt-4o"));

    assertThatThrownBy(() -> BUNDLED.withOverrides(overrides)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("prices names gpt-4o twice (gpt-4o, GPT-4O); names are compared without regard to case");
  }

  @Test
  void pricesCachedInputAtTheCachedInputPrice() {
    // gpt-4o, 1,000 input of which 400 cached, 500 output:
    // 600 × 2.50 + 400 × 1.25 + 500 × 10.00 = 1,500 + 500 + 5,000 = 7,000 µUSD
    assertThat(Prices.microUsd(price("gpt-4o"), usage(1_000, 500, 400, 0))).isEqualTo(7_000);
  }

  @Test
  void pricesAnthropicCacheWritesAtTheCacheWritePrice() {
    // claude-sonnet-4, 5,100 input = 100 uncached + 3,000 read + 2,000 written, 400 output:
    // 100 × 3.00 + 3,000 × 0.30 + 2,000 × 3.75 + 400 × 15.00 = 300 + 900 + 7,500 + 6,000 = 14,700 µUSD
    assertThat(Prices.microUsd(price("claude-sonnet-4"), usage(5_100, 400, 3_000, 2_000))).isEqualTo(14_700);
  }

  @Test
  void cacheFiguresAboveTheInputLeaveNoUncachedInput() {
    // 100 input but 80 read + 40 written: no uncached input, 80 × 0.30 + 40 × 3.75 = 24 + 150 = 174 µUSD
    assertThat(Prices.microUsd(price("claude-sonnet-4"), usage(100, 0, 80, 40))).isEqualTo(174);
  }

  @Test
  void roundsAFractionOfAMicroDollarUpOncePerCall() {
    Price mini = price("gpt-4o-mini");
    // 1 cached token at 0.075 USD per million = 0.075 µUSD
    assertThat(Prices.microUsd(mini, usage(1, 0, 1, 0))).isEqualTo(1);
    // 0.075 + 0.60 = 0.675 µUSD: one rounding for the call, not one per kind of token
    assertThat(Prices.microUsd(mini, usage(1, 1, 1, 0))).isEqualTo(1);
    // 1,000,000 cached tokens at 0.075 = 75,000 µUSD exactly, nothing to round
    assertThat(Prices.microUsd(mini, usage(1_000_000, 0, 1_000_000, 0))).isEqualTo(75_000);
    assertThat(Prices.microUsd(mini, usage(0, 0, 0, 0))).isZero();
  }

  @Test
  void theEstimatePricesTheWholePromptAsInputAndTheOutputCapAsOutput() {
    // 1,000 × 2.50 + 500 × 10.00 = 2,500 + 5,000 = 7,500 µUSD, whatever the cache later serves
    assertThat(Prices.microUsd(price("gpt-4o"), 1_000, 500)).isEqualTo(7_500);
    // 3 × 0.15 + 0 = 0.45 µUSD, rounded up
    assertThat(Prices.microUsd(price("gpt-4o-mini"), 3, 0)).isEqualTo(1);
    assertThat(Prices.microUsd(price("gpt-4o"), -5, -1)).isZero();
  }

  @Test
  void readsAnEntrysFieldsAsTheConfigurationGivesThem() {
    assertThat(Price.fromFields(Map.of("input", "2.50", "cached-input", "1.25", "output", "10.00")))
        .isEqualTo(new Price(2_500_000, 1_250_000, 10_000_000, 2_500_000));
    assertThat(Price.fromFields(Map.of("input", 3, "cache-write", 3.75, "output", new BigDecimal("15"))))
        .isEqualTo(new Price(3_000_000, 3_000_000, 15_000_000, 3_750_000));
    assertThat(Price.fromFields(Map.of("input", "0.000001", "output", 0.075)))
        .isEqualTo(new Price(1, 1, 75_000, 1));
  }

  @Test
  void refusesABadFigureNamingIt() {
    assertThatThrownBy(() -> Price.fromFields(Map.of("input", "-1", "output", "1")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("input must be >= 0, was -1");
    assertThatThrownBy(() -> Price.fromFields(Map.of("input", "1", "cached-input", "0.0000001", "output", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cached-input may have at most 6 decimals, was 0.0000001");
    assertThatThrownBy(() -> Price.fromFields(Map.of("input", "1", "output", "ten")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("output must be a number of USD per million tokens, was 'ten'");
    assertThatThrownBy(() -> Price.fromFields(Map.of("input", "1e3", "output", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("input must be a number of USD per million tokens, was '1e3'");
    assertThatThrownBy(() -> Price.fromFields(Map.of("input", "1", "output", true)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("output must be a number of USD per million tokens, was true");
    assertThatThrownBy(() -> Price.fromFields(Map.of("input", "1", "cache-write", Double.NaN, "output", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cache-write must be a number of USD per million tokens, was NaN");
    assertThatThrownBy(() -> Price.fromFields(Map.of("input", "1000000.01", "output", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("input must be at most 1000000 USD per million tokens, was 1000000.01");
  }

  @Test
  void refusesAMissingOrUnknownField() {
    assertThatThrownBy(() -> Price.fromFields(Map.of("input", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("output is required, in USD per million tokens");
    assertThatThrownBy(() -> Price.fromFields(Map.of("input", "1", "cached_input", "0.5", "output", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cached_input is not a known field; the fields are input, cached-input, output and cache-write");
    assertThatThrownBy(() -> new Price(-1, 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("input must be between 0 and 1000000000000 pico-dollars per token, was -1");
  }

  @Test
  void theLargestCountsAtTheHighestPricesCostTheCapWithoutOverflow() {
    Price highest = Price.perMillion("1000000", null, "1000000", null);
    assertThat(Prices.microUsd(highest, usage(MAX, MAX, MAX, MAX))).isEqualTo(Prices.MAX_MICRO_USD);
    assertThat(Prices.microUsd(highest, Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Prices.MAX_MICRO_USD);
    assertThat(Prices.microUsd(price("o1-pro"), 0, MAX)).isEqualTo(Prices.MAX_MICRO_USD);
  }

  @Test
  void theLargestCountsBelowTheCapArePricedExactly() {
    // 2^50 tokens at 0.000001 USD per million: 1,125,899,906,842,624 / 10^6 = 1,125,899,906.842624 → 1,125,899,907
    assertThat(Prices.microUsd(Price.perMillion("0.000001", null, "0", null), MAX, 0)).isEqualTo(1_125_899_907L);
    // 2^50 × 0.999999 = 1,125,898,780,942,717.157376 → 1,125,898,780,942,718
    assertThat(Prices.microUsd(Price.perMillion("0.999999", null, "0", null), MAX, 0))
        .isEqualTo(1_125_898_780_942_718L);
  }

  /** Up to 2^40 tokens at up to 1,000 USD per million: some calls below the cap, some above. */
  @Property(tries = 2000, seed = "20261203")
  void pricesEveryCallAsExactArithmeticRoundedUpWould(
      @ForAll @LongRange(max = 1L << 40) long input,
      @ForAll @LongRange(max = 1L << 40) long output,
      @ForAll @LongRange(max = 1L << 40) long cacheRead,
      @ForAll @LongRange(max = 1L << 40) long cacheWrite,
      @ForAll @LongRange(max = 1_000_000_000) long inputPrice,
      @ForAll @LongRange(max = 1_000_000_000) long cachedPrice,
      @ForAll @LongRange(max = 1_000_000_000) long outputPrice,
      @ForAll @LongRange(max = 1_000_000_000) long writePrice) {
    Price price = new Price(inputPrice, cachedPrice, outputPrice, writePrice);
    long uncached = Math.max(0, input - cacheRead - cacheWrite);
    BigInteger pico = BigInteger.valueOf(uncached).multiply(BigInteger.valueOf(inputPrice))
        .add(BigInteger.valueOf(cacheRead).multiply(BigInteger.valueOf(cachedPrice)))
        .add(BigInteger.valueOf(cacheWrite).multiply(BigInteger.valueOf(writePrice)))
        .add(BigInteger.valueOf(output).multiply(BigInteger.valueOf(outputPrice)));
    long expected = new BigDecimal(pico).movePointLeft(6).setScale(0, RoundingMode.CEILING)
        .min(BigDecimal.valueOf(Prices.MAX_MICRO_USD)).longValueExact();

    assertThat(Prices.microUsd(price, usage(input, output, cacheRead, cacheWrite))).isEqualTo(expected);
  }
}
