package io.tollgate.limiter;

import java.time.Instant;

/**
 * The in-memory limiter's clock, in microseconds since the epoch. Redis-backed limits never use
 * it: there the server's TIME is the one clock of the fleet. Tests pass a fake one.
 */
@FunctionalInterface
public interface MicroClock {

  long nowMicros();

  static MicroClock system() {
    return () -> {
      Instant now = Instant.now();
      return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    };
  }
}
