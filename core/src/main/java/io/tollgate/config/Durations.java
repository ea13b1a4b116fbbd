package io.tollgate.config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as the configuration writes them: a whole number and a unit, {@code ms}, {@code s},
 * {@code m}, {@code h} or {@code d} ({@code 100ms}, {@code 2s}, {@code 10m}). A bare number is
 * rejected rather than guessed: {@code timeout: 100} could mean 100 ms or 100 s.
 */
final class Durations {

  private static final Pattern DURATION = Pattern.compile("(-?\\d+)(ms|s|m|h|d)");
  private static final Pattern BARE_NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");
  static final String EXPECTED =
      "must be a duration: a whole number with a unit ms, s, m, h or d (100ms, 2s, 10m, 1h, 1d)";

  private Durations() {}

  /** Parses {@code text}; the exception's message continues a sentence that starts with the key. */
  static Duration parse(String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(BARE_NUMBER.matcher(text).matches()
          ? EXPECTED + "; a bare number has no unit" : EXPECTED);
    }
    try {
      long amount = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        case "h" -> Duration.ofHours(amount);
        default -> Duration.ofDays(amount);
      };
    } catch (ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException("is too large a duration");
    }
  }

  /** {@code duration} in the largest unit that writes it whole, as the configuration would. */
  static String format(Duration duration) {
    if (duration.getNano() % 1_000_000 != 0) {
      return duration.toString(); // finer than the configuration can write; only set in code
    }
    long millis = duration.toMillis();
    if (millis % 1000 != 0) {
      return millis + "ms";
    }
    long seconds = duration.getSeconds();
    for (ChronoUnit unit : new ChronoUnit[] {ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES}) {
      long perUnit = unit.getDuration().getSeconds();
      if (seconds != 0 && seconds % perUnit == 0) {
        return seconds / perUnit + suffix(unit);
      }
    }
    return seconds + "s";
  }

  private static String suffix(ChronoUnit unit) {
    return switch (unit) {
      case DAYS -> "d";
      case HOURS -> "h";
      default -> "m";
    };
  }

  /** {@code duration} must be at least one millisecond: what the limiter and Redis client can honour. */
  static void requirePositive(String key, Duration duration) {
    if (duration.toMillis() < 1) {
      throw new ConfigException(key, "must be at least 1ms, was " + format(duration));
    }
  }
}
