package io.tollgate.router.internal;

import java.time.Duration;
import java.time.Instant;

/**
 * The times of the last {@code failures} consecutive failures, to tell when that many happened
 * within {@code window}. A ring of instants rather than a count and a start time: failures at 0 s,
 * 6 s, 12 s and 14 s hold three within 8 s, which a streak restarted at 12 s would miss.
 */
final class FailureStreak {

  private final Instant[] times;
  private final Duration window;
  private volatile int count; // read without the breaker's lock by isEmpty()
  private int next;

  FailureStreak(int failures, Duration window) {
    this.times = new Instant[failures];
    this.window = window;
  }

  /** Records a failure at {@code now}; true when it completes {@code failures} within the window. */
  boolean fail(Instant now) {
    times[next] = now;
    next = (next + 1) % times.length;
    count = Math.min(count + 1, times.length);
    return count == times.length && !now.isAfter(times[next].plus(window));
  }

  /** True when no failure is counted: a success then changes nothing. */
  boolean isEmpty() {
    return count == 0;
  }

  /** A success, or the breaker opened: the streak starts again. */
  void reset() {
    count = 0;
  }
}
