package io.tollgate.testkit.redis.internal;

import io.tollgate.testkit.redis.RedisFixtureException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Bounded polling: every wait in the fixtures goes through here, so none can hang a build and
 * every timeout explains itself.
 *
 * <p>A probe that throws counts as "not yet" (a server still binding its port refuses
 * connections); the last such exception becomes the cause of the timeout.
 */
public final class Await {

  private static final long FIRST_PAUSE_MILLIS = 2;
  private static final long MAX_PAUSE_MILLIS = 50;

  private Await() {}

  /** Polls {@code probe} until it yields a value, or throws after {@code timeout}. */
  public static <T> T until(
      String what, Duration timeout, Supplier<Optional<T>> probe, Supplier<String> diagnostics) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = FIRST_PAUSE_MILLIS;
    RuntimeException lastFailure = null;
    while (true) {
      try {
        Optional<T> result = probe.get();
        if (result.isPresent()) {
          return result.get();
        }
      } catch (RedisFixtureException e) {
        throw e; // the probe already knows it is hopeless (e.g. the process died)
      } catch (RuntimeException e) {
        lastFailure = e;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new RedisFixtureException(
            "Timed out after " + timeout.toMillis() + " ms waiting for " + what
                + describe(lastFailure) + describe(diagnostics),
            lastFailure);
      }
      sleep(pause);
      pause = Math.min(pause * 2, MAX_PAUSE_MILLIS);
    }
  }

  /** Polls {@code condition} until it holds, or throws after {@code timeout}. */
  public static void untilTrue(
      String what, Duration timeout, Supplier<Boolean> condition, Supplier<String> diagnostics) {
    until(what, timeout, () -> condition.get() ? Optional.of(true) : Optional.empty(), diagnostics);
  }

  private static String describe(RuntimeException lastFailure) {
    return lastFailure == null ? "" : "\nlast probe failure: " + lastFailure;
  }

  private static String describe(Supplier<String> diagnostics) {
    try {
      String text = diagnostics.get();
      return text == null || text.isBlank() ? "" : "\n" + text;
    } catch (RuntimeException e) {
      return "\n(diagnostics unavailable: " + e + ")";
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisFixtureException("Interrupted while waiting", e);
    }
  }
}
