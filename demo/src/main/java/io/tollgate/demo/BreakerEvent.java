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

  String label() {
    return from + " -> " + to + " (" + reason + ")";
  }
}
