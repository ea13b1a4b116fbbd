package io.tollgate.demo;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Everything the app's JVM printed that the demo reads: the app's call lines on stdout; the agent's
 * {@code [tollgate]} lines and the core's log records (breaker transitions and others) on stderr. Thread-safe: the two pump
 * threads write, the progress and summary read snapshots.
 */
final class Recorder {

  private static final int KEPT_OTHER_LINES = 40;

  private final List<CallOutcome> calls = new ArrayList<>();
  private final List<BreakerEvent> breakerEvents = new ArrayList<>();
  private final List<String> agentLines = new ArrayList<>();
  /** The core's other log records (Redis unreachable and back, ...), with their times. */
  private final List<String> coreLog = new ArrayList<>();
  private final Deque<String> otherLines = new ArrayDeque<>();
  private Set<String> instrumented;
  private long startEpochMillis = -1;
  private int doneCalls = -1;

  synchronized void stdout(String line) {
    long now = System.currentTimeMillis();
    if (line.startsWith("start ")) {
      startEpochMillis = now;
      notifyAll();
    } else if (line.startsWith("done calls=")) {
      doneCalls = Integer.parseInt(line.substring("done calls=".length()).strip());
    } else {
      Optional<CallOutcome> call = CallOutcome.parse(line, now - startMillis(now));
      if (call.isPresent()) {
        calls.add(call.get());
      } else {
        other(line);
      }
    }
  }

  synchronized void stderr(String line) {
    if (line.startsWith("[tollgate]")) {
      agentLines.add(line);
      Instrumented.modules(line).ifPresent(modules -> instrumented = modules);
      return;
    }
    long start = startMillis(System.currentTimeMillis());
    Optional<BreakerEvent> event = BreakerEvent.parse(line, start);
    if (event.isPresent()) {
      breakerEvents.add(event.get());
    } else if (line.startsWith(BreakerEvent.LOG_PREFIX)) {
      coreLog.add(BreakerEvent.logLine(line, start));
    } else {
      other(line);
    }
  }

  private long startMillis(long now) {
    return startEpochMillis < 0 ? now : startEpochMillis;
  }

  private void other(String line) {
    otherLines.addLast(line);
    if (otherLines.size() > KEPT_OTHER_LINES) {
      otherLines.removeFirst();
    }
  }

  /** Waits until the app has printed its start line; false when it did not within {@code timeoutMillis}. */
  synchronized boolean awaitStart(long timeoutMillis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (startEpochMillis < 0) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return false;
      }
      wait(left);
    }
    return true;
  }

  synchronized long startEpochMillis() {
    return startEpochMillis;
  }

  synchronized List<CallOutcome> calls() {
    return List.copyOf(calls);
  }

  synchronized List<BreakerEvent> breakerEvents() {
    return List.copyOf(breakerEvents);
  }

  synchronized List<String> agentLines() {
    return List.copyOf(agentLines);
  }

  synchronized List<String> coreLog() {
    return List.copyOf(coreLog);
  }

  synchronized List<String> otherLines() {
    return List.copyOf(otherLines);
  }

  /** The agent's instrumentation names; empty until its start-up line, or when it did not start. */
  synchronized Set<String> instrumented() {
    return instrumented == null ? Set.of() : new LinkedHashSet<>(instrumented);
  }

  /** What the app's {@code done calls=N} said; -1 before it. */
  synchronized int doneCalls() {
    return doneCalls;
  }
}
