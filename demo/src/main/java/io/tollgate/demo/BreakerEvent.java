package io.tollgate.demo;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A breaker transition as the agent's core logs it (one line through {@code java.util.logging},
 * formatted by the JVM option the driver gives the app): {@code tollgate-log 1764421200123 INFO
 * circuit breaker of provider demo-primary: CLOSED -> OPEN (FAILURES), open until ...}. The core
 * logs every transition except those into HALF_OPEN.
 *
 * @param atMillis milliseconds since the app started
 */
record BreakerEvent(long atMillis, String provider, String from, String to, String reason) {

  /** Makes the core's log records one line each, starting with the epoch milliseconds. */
  static final String LOG_FORMAT_OPTION =
      "-Djava.util.logging.SimpleFormatter.format=tollgate-log %1$tQ %4$s %5$s%6$s%n";

  static final String LOG_PREFIX = "tollgate-log ";

  private static final Pattern RECORD = Pattern.compile("tollgate-log (\\d+) (.*)");
  private static final Pattern LINE = Pattern.compile(
      "tollgate-log (\\d+) \\w+ circuit breaker of provider (\\S+): (\\w+) -> (\\w+) \\((\\w+)\\).*");

  static Optional<BreakerEvent> parse(String line, long appStartEpochMillis) {
    Matcher m = LINE.matcher(line);
    if (!m.matches()) {
      return Optional.empty();
    }
    long at = Long.parseLong(m.group(1)) - appStartEpochMillis;
    return Optional.of(new BreakerEvent(at, m.group(2), m.group(3), m.group(4), m.group(5)));
  }

  /** Any other record of the core's log, as {@code 12.3s WARNING message}. */
  static String logLine(String line, long appStartEpochMillis) {
    Matcher m = RECORD.matcher(line);
    if (!m.matches()) {
      return line;
    }
    double seconds = (Long.parseLong(m.group(1)) - appStartEpochMillis) / 1000.0;
    return String.format(java.util.Locale.ROOT, "%.1fs %s", seconds, m.group(2));
  }

  String label() {
    return from + " -> " + to + " (" + reason + ")";
  }
}
