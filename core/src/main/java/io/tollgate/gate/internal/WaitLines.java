package io.tollgate.gate.internal;

import io.tollgate.limiter.Subject;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The calls of this JVM waiting for room under {@code on-limit: wait}, in lines: one per limited
 * subject and priority class, first come, first served. Only the first of a line tries its
 * reserve again; those behind it look every {@link #TURN_CHECK} whether their turn has come, and
 * a new call charged to a subject whose line holds calls of its class joins the line instead of
 * taking the room the first is waiting for. A line is per subject, not per provider, so that a
 * tenant out of room never holds up another tenant's calls.
 */
final class WaitLines {

  /** How often a call behind the first of its line looks whether its turn has come. */
  static final Duration TURN_CHECK = Duration.ofMillis(10);

  private final Map<String, Deque<Object>> lines = new ConcurrentHashMap<>();

  /** The line of {@code subject}'s calls of {@code priorityClass}. */
  static String line(Subject subject, String priorityClass) {
    return subject.scope() + ":" + subject.idHash() + "|" + priorityClass;
  }

  /** Whether calls wait in {@code line} now. */
  boolean anyIn(String line) {
    Deque<Object> waiting = lines.get(line);
    return waiting != null && !waiting.isEmpty();
  }

  /** {@code call} joins the end of {@code line}. */
  void join(String line, Object call) {
    lines.computeIfAbsent(line, key -> new ConcurrentLinkedDeque<>()).addLast(call);
  }

  /** Whether {@code call} is the first of {@code line}: the one to try again. */
  boolean isFirst(String line, Object call) {
    Deque<Object> waiting = lines.get(line);
    return waiting == null || waiting.peekFirst() == call;
  }

  /** {@code call} leaves {@code line}: served, or done waiting. */
  void leave(String line, Object call) {
    Deque<Object> waiting = lines.get(line);
    if (waiting != null) {
      waiting.remove(call);
      // an empty line goes, unless a call joined it meanwhile
      lines.computeIfPresent(line, (key, left) -> left.isEmpty() ? null : left);
    }
  }
}
