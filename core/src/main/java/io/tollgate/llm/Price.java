package io.tollgate.llm;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a model charges for each kind of token a call uses.
 *
 * <p>Providers publish prices in USD per million tokens. Each figure here is held as a whole
 * number of pico-dollars (10<sup>-12</sup> USD) per token, which is the same number as micro-dollars
 * per million tokens: 2.50 USD per million is {@code 2_500_000}. Every figure with up to {@value
 * #MAX_DECIMALS} decimals in USD per million is held exactly, so a call is priced in integer
 * arithmetic and two prices of the same call never differ by a rounding.
 *
 * @param inputPicoUsd per input token that is neither read from nor written to the prompt cache
 * @param cachedInputPicoUsd per input token read from the provider's prompt cache
 * @param outputPicoUsd per output token, reasoning included
 * @param cacheWritePicoUsd per input token written to the prompt cache (Anthropic charges it above
 *     the input price; a provider that does not is given the input price)
 */
public record Price(long inputPicoUsd, long cachedInputPicoUsd, long outputPicoUsd, long cacheWritePicoUsd) {

  /** The most decimals a figure in USD per million tokens may have: the pico-dollar per token. */
  public static final int MAX_DECIMALS = 6;

  /** The highest figure accepted, in USD per million tokens: far above any published price. */
  public static final BigDecimal MAX_USD_PER_MILLION = BigDecimal.valueOf(1_000_000);

  /** {@link #MAX_USD_PER_MILLION} in pico-dollars per token; it keeps pricing a call within a long. */
  public static final long MAX_PICO_USD = 1_000_000_000_000L;

  // the figures' names, as a prices: entry and the bundled table write them
  private static final String INPUT = "input";
  private static final String CACHED_INPUT = "cached-input";
  private static final String OUTPUT = "output";
  private static final String CACHE_WRITE = "cache-write";

  private static final Set<String> FIELDS = Set.of(INPUT, CACHED_INPUT, OUTPUT, CACHE_WRITE);

  /** A plain decimal, as YAML and properties give it: no exponent, no grouping, no sign but minus. */
  private static final Pattern PLAIN_DECIMAL = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");

  public Price {
    checkRange(INPUT, inputPicoUsd);
    checkRange(CACHED_INPUT, cachedInputPicoUsd);
    checkRange(OUTPUT, outputPicoUsd);
    checkRange(CACHE_WRITE, cacheWritePicoUsd);
  }

  /**
   * A price from figures in USD per million tokens; {@code cachedInput} and {@code cacheWrite} may
   * be null, then they are the input price (the provider gives no discount or surcharge).
   *
   * @throws IllegalArgumentException naming the figure that is negative, above {@link
   *     #MAX_USD_PER_MILLION} or has more than {@value #MAX_DECIMALS} decimals
   */
  public static Price perMillion(BigDecimal input, BigDecimal cachedInput, BigDecimal output, BigDecimal cacheWrite) {
    long in = picoUsd(INPUT, Objects.requireNonNull(input, INPUT));
    return new Price(in,
        cachedInput == null ? in : picoUsd(CACHED_INPUT, cachedInput),
        picoUsd(OUTPUT, Objects.requireNonNull(output, OUTPUT)),
        cacheWrite == null ? in : picoUsd(CACHE_WRITE, cacheWrite));
  }

  /** {@link #perMillion(BigDecimal, BigDecimal, BigDecimal, BigDecimal)} from plain decimals ("2.50"). */
  public static Price perMillion(String input, String cachedInput, String output, String cacheWrite) {
    return perMillion(decimal(INPUT, Objects.requireNonNull(input, INPUT)),
        cachedInput == null ? null : decimal(CACHED_INPUT, cachedInput),
        decimal(OUTPUT, Objects.requireNonNull(output, OUTPUT)),
        cacheWrite == null ? null : decimal(CACHE_WRITE, cacheWrite));
  }

  /**
   * A price from the fields of one table entry or one {@code prices:} entry: {@code input} and
   * {@code output} required, {@code cached-input} and {@code cache-write} optional (then the input
   * price). A value is a number or a plain decimal text, in USD per million tokens.
   *
   * @throws IllegalArgumentException whose message starts with the name of the field that is
   *     unknown, missing or not an acceptable figure, so a caller can prefix its key path
   */
  public static Price fromFields(Map<String, ?> fields) {
    for (String name : fields.keySet()) {
      if (name == null || !FIELDS.contains(name)) {
        throw new IllegalArgumentException(name + " is not a known field; the fields are "
            + INPUT + ", " + CACHED_INPUT + ", " + OUTPUT + " and " + CACHE_WRITE);
      }
    }
    return perMillion(required(fields, INPUT), optional(fields, CACHED_INPUT),
        required(fields, OUTPUT), optional(fields, CACHE_WRITE));
  }

  /** The figures in USD per million tokens, as a {@code prices:} entry writes them. */
  @Override
  public String toString() {
    return "Price[" + INPUT + "=" + usdPerMillion(inputPicoUsd) + ", " + CACHED_INPUT + "="
        + usdPerMillion(cachedInputPicoUsd) + ", " + OUTPUT + "=" + usdPerMillion(outputPicoUsd) + ", "
        + CACHE_WRITE + "=" + usdPerMillion(cacheWritePicoUsd) + " USD per million tokens]";
  }

  /** {@code picoUsd} per token as USD per million tokens, without trailing zeros ("0.075", "10"). */
  public static String usdPerMillion(long picoUsd) {
    return BigDecimal.valueOf(picoUsd, MAX_DECIMALS).stripTrailingZeros().toPlainString();
  }

  private static BigDecimal required(Map<String, ?> fields, String name) {
    Object value = fields.get(name);
    if (value == null) {
      throw new IllegalArgumentException(name + " is required, in USD per million tokens");
    }
    return number(name, value);
  }

  private static BigDecimal optional(Map<String, ?> fields, String name) {
    Object value = fields.get(name);
    return value == null ? null : number(name, value);
  }

  private static BigDecimal number(String name, Object value) {
    if (value instanceof BigDecimal decimal) {
      return decimal;
    }
    if (value instanceof BigInteger integer) {
      return new BigDecimal(integer);
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (!Double.isFinite(d)) {
        throw notANumber(name, value);
      }
      // the shortest decimal that reads back as this double: 0.075, not 0.07499999999999999722...
      return new BigDecimal(value.toString());
    }
    if (value instanceof String text) {
      return decimal(name, text);
    }
    throw notANumber(name, value);
  }

  private static BigDecimal decimal(String name, String text) {
    String trimmed = text.trim();
    if (!PLAIN_DECIMAL.matcher(trimmed).matches()) {
      throw notANumber(name, "'" + text + "'");
    }
    return new BigDecimal(trimmed);
  }

  private static IllegalArgumentException notANumber(String name, Object value) {
    return new IllegalArgumentException(name + " must be a number of USD per million tokens, was " + value);
  }

  private static long picoUsd(String name, BigDecimal usdPerMillion) {
    if (usdPerMillion.signum() < 0) {
      throw new IllegalArgumentException(name + " must be >= 0, was " + usdPerMillion.toPlainString());
    }
    if (usdPerMillion.compareTo(MAX_USD_PER_MILLION) > 0) {
      throw new IllegalArgumentException(name + " must be at most " + MAX_USD_PER_MILLION
          + " USD per million tokens, was " + usdPerMillion.toPlainString());
    }
    if (usdPerMillion.stripTrailingZeros().scale() > MAX_DECIMALS) {
      throw new IllegalArgumentException(name + " may have at most " + MAX_DECIMALS
          + " decimals, was " + usdPerMillion.toPlainString());
    }
    return usdPerMillion.movePointRight(MAX_DECIMALS).longValueExact();
  }

  private static void checkRange(String name, long picoUsd) {
    if (picoUsd < 0 || picoUsd > MAX_PICO_USD) {
      throw new IllegalArgumentException(name + " must be between 0 and " + MAX_PICO_USD
          + " pico-dollars per token, was " + picoUsd);
    }
  }
}
