package io.tollgate.llm.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Optional;

/** The time formats of provider headers, read and written. */
final class Durations {

  /** RFC 850, the obsolete HTTP-date form: {@code Sunday, 06-Nov-94 08:49:37 GMT}. */
  private static final DateTimeFormatter RFC_850 = new DateTimeFormatterBuilder()
      .appendPattern("EEEE, dd-MMM-")
      .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
      .appendPattern(" HH:mm:ss 'GMT'")
      .toFormatter(Locale.US);

  /** ANSI C asctime(): {@code Sun Nov  6 08:49:37 1994}. */
  private static final DateTimeFormatter ASCTIME = new DateTimeFormatterBuilder()
      .appendPattern("EEE MMM")
      .appendLiteral(' ')
      .optionalStart().appendLiteral(' ').optionalEnd()
      .appendPattern("d HH:mm:ss yyyy")
      .toFormatter(Locale.US);

  private Durations() {}

  /**
   * OpenAI's reset durations, in Go's format: {@code 1s}, {@code 6m0s}, {@code 1m30s}, {@code
   * 20ms}, {@code 0.5s}, {@code 2h3m4.5s}; a bare number is seconds (Azure). Empty when
   * unreadable or negative.
   */
  static Optional<Duration> parseGo(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String s = value.trim();
    if (s.isEmpty()) {
      return Optional.empty();
    }
    try {
      if (isNumber(s)) {
        return nonNegative(seconds(new BigDecimal(s)));
      }
      long nanos = 0;
      int i = 0;
      while (i < s.length()) {
        int start = i;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
          i++;
        }
        if (start == i) {
          return Optional.empty();
        }
        BigDecimal amount = new BigDecimal(s.substring(start, i));
        int unitStart = i;
        while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
          i++;
        }
        long unitNanos = switch (s.substring(unitStart, i)) {
          case "h" -> 3_600_000_000_000L;
          case "m" -> 60_000_000_000L;
          case "s" -> 1_000_000_000L;
          case "ms" -> 1_000_000L;
          case "us", "µs", "μs" -> 1_000L;
          case "ns" -> 1L;
          default -> -1L;
        };
        if (unitNanos < 0) {
          return Optional.empty();
        }
        nanos = Math.addExact(nanos, amount.multiply(BigDecimal.valueOf(unitNanos))
            .setScale(0, RoundingMode.HALF_UP).longValueExact());
      }
      return Optional.of(Duration.ofNanos(nanos));
    } catch (NumberFormatException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /**
   * {@code Retry-After}: delta-seconds (a decimal is accepted too), or an HTTP-date in any of its
   * three forms, counted from {@code now} (a date in the past is zero).
   */
  static Optional<Duration> parseRetryAfter(String value, Instant now) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String s = value.trim();
    if (isNumber(s)) {
      try {
        return nonNegative(seconds(new BigDecimal(s)));
      } catch (NumberFormatException | ArithmeticException e) {
        return Optional.empty();
      }
    }
    return httpDate(s).map(date -> untilOrZero(now, date));
  }

  /** {@code retry-after-ms}: milliseconds, maybe with a fraction. */
  static Optional<Duration> parseMillis(String value) {
    if (value == null || !isNumber(value.trim())) {
      return Optional.empty();
    }
    try {
      BigDecimal ms = new BigDecimal(value.trim());
      return nonNegative(Duration.ofNanos(ms.multiply(BigDecimal.valueOf(1_000_000))
          .setScale(0, RoundingMode.HALF_UP).longValueExact()));
    } catch (NumberFormatException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /**
   * Anthropic's reset: an RFC 3339 timestamp ({@code 2026-05-01T12:00:30Z}), or epoch seconds;
   * the time from {@code now} until then, zero if past.
   */
  static Optional<Duration> parseResetInstant(String value, Instant now) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String s = value.trim();
    try {
      if (s.chars().allMatch(Character::isDigit)) {
        return Optional.of(untilOrZero(now, Instant.ofEpochSecond(Long.parseLong(s))));
      }
      return Optional.of(untilOrZero(now, OffsetDateTime.parse(s).toInstant()));
    } catch (DateTimeException | NumberFormatException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /** Go's format, to the millisecond, as OpenAI writes its resets: {@code 20ms}, {@code 1.5s}, {@code 6m0s}, {@code 1h0m0s}. */
  static String formatGo(Duration d) {
    long ms = ceilMillis(d);
    if (ms == 0) {
      return "0s";
    }
    if (ms < 1000) {
      return ms + "ms";
    }
    long hours = ms / 3_600_000;
    long minutes = ms % 3_600_000 / 60_000;
    long millisOfMinute = ms % 60_000;
    String seconds = BigDecimal.valueOf(millisOfMinute, 3).stripTrailingZeros().toPlainString() + "s";
    if (hours > 0) {
      return hours + "h" + minutes + "m" + seconds;
    }
    if (minutes > 0) {
      return minutes + "m" + seconds;
    }
    return seconds;
  }

  /** Whole seconds, rounded up: what {@code Retry-After} carries. */
  static long ceilSeconds(Duration d) {
    long s = d.getSeconds();
    return d.getNano() > 0 ? s + 1 : s;
  }

  static long ceilMillis(Duration d) {
    long ms = d.toMillis();
    return d.minusMillis(ms).isZero() ? ms : ms + 1;
  }

  /** RFC 3339 in UTC to the second, rounded up: {@code 2026-05-01T12:00:30Z}. */
  static String formatInstant(Instant instant) {
    Instant up = instant.getNano() > 0 ? instant.plusSeconds(1).truncatedTo(java.time.temporal.ChronoUnit.SECONDS) : instant;
    return DateTimeFormatter.ISO_INSTANT.format(up);
  }

  private static Optional<Instant> httpDate(String s) {
    try {
      return Optional.of(OffsetDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
    } catch (DateTimeException ignored) {
      // try the obsolete forms
    }
    try {
      return Optional.of(LocalDateTime.parse(s, RFC_850).toInstant(ZoneOffset.UTC));
    } catch (DateTimeException ignored) {
      // try asctime
    }
    try {
      return Optional.of(LocalDateTime.parse(s, ASCTIME).toInstant(ZoneOffset.UTC));
    } catch (DateTimeException ignored) {
      return Optional.empty();
    }
  }

  private static Duration untilOrZero(Instant now, Instant then) {
    return then.isAfter(now) ? Duration.between(now, then) : Duration.ZERO;
  }

  private static Duration seconds(BigDecimal seconds) {
    return Duration.ofNanos(seconds.multiply(BigDecimal.valueOf(1_000_000_000))
        .setScale(0, RoundingMode.HALF_UP).longValueExact());
  }

  private static Optional<Duration> nonNegative(Duration d) {
    return d.isNegative() ? Optional.empty() : Optional.of(d);
  }

  private static boolean isNumber(String s) {
    if (s.isEmpty() || s.length() > 30) {
      return false;
    }
    boolean digit = false;
    boolean dot = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        digit = true;
      } else if (c == '.' && !dot) {
        dot = true;
      } else {
        return false;
      }
    }
    return digit;
  }
}
