package io.tollgate.config;

import io.tollgate.llm.Prices;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * Parses the text of a scalar key into its type. Strict on purpose: {@code 1_000}, {@code 0x10},
 * {@code yes} or {@code 1e3} are rejected instead of read in some way the writer did not mean. A
 * failure is an {@link IllegalArgumentException} whose message continues a sentence that starts
 * with the key; the caller adds the key and the value.
 */
final class Values {

  private static final Pattern WHOLE = Pattern.compile("-?\\d+");
  private static final Pattern DECIMAL = Pattern.compile("-?\\d+(\\.\\d+)?");
  /** An HTTP header name: RFC 9110's token. */
  static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  private Values() {}

  /**
   * {@code name}, when it is an HTTP header name.
   *
   * @throws ConfigException naming {@code key} when it is not
   */
  static String headerName(String key, String name) {
    if (name == null || !HEADER_NAME.matcher(name).matches()) {
      throw new ConfigException(key, "must be an HTTP header name, was " + ConfigException.shown(name));
    }
    return name;
  }

  static long wholeNumber(String text) {
    if (!WHOLE.matcher(text).matches()) {
      throw new IllegalArgumentException("must be a whole number");
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("is too large a number");
    }
  }

  static int intNumber(String text) {
    long value = wholeNumber(text);
    if (value != (int) value) {
      throw new IllegalArgumentException("is too large a number");
    }
    return (int) value;
  }

  static double decimal(String text) {
    if (!DECIMAL.matcher(text).matches()) {
      throw new IllegalArgumentException("must be a number such as 0.5");
    }
    return Double.parseDouble(text);
  }

  /**
   * US dollars ({@code 5}, {@code 5.00}, {@code 0.25}) as micro-dollars; at most six decimals, so
   * that a budget is counted exactly.
   */
  static long usdMicros(String text) {
    if (!DECIMAL.matcher(text).matches()) {
      throw new IllegalArgumentException("must be an amount in US dollars such as 5.00");
    }
    try {
      return Prices.toMicroUsd(new BigDecimal(text));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(text.length() > 20
          ? "is too large an amount" : "may have at most 6 decimals (a micro-dollar)");
    }
  }

  static boolean bool(String text) {
    return switch (text) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("must be true or false");
    };
  }

  /** The constant of {@code type} whose {@link #name(Enum) configuration name} is {@code text}. */
  static <E extends Enum<E>> E oneOf(Class<E> type, String text) {
    StringJoiner names = new StringJoiner(", ");
    boolean hasOff = false;
    for (E constant : type.getEnumConstants()) {
      if (name(constant).equals(text)) {
        return constant;
      }
      names.add(name(constant));
      hasOff |= name(constant).equals("off");
    }
    String problem = "must be one of " + names;
    if (text.equals("false") && hasOff) {
      // YAML 1.1 (Spring's parser among others) reads an unquoted off as the boolean false.
      problem += " (an unquoted off can reach us as false: write it 'off')";
    }
    throw new IllegalArgumentException(problem);
  }

  /** How the configuration writes an enum constant: {@code FAIL_OPEN} → {@code fail-open}. */
  static String name(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
