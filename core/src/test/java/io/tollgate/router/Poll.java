package io.tollgate.router;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting for another thread, JVM or Redis by polling, never by a fixed sleep. */
final class Poll {

  private Poll() {}

  /** Polls {@code condition} every 10 ms; returns how long it took, fails after {@code limit}. */
  static Duration until(Duration limit, String what, BooleanSupplier condition) {
    long start = System.nanoTime();
    long deadline = start + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail(what + " did not happen within " + limit);
      }
      pause(10);
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
