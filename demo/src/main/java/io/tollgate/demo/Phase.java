package io.tollgate.demo;

import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.FaultScript;
import java.time.Duration;

/**
 * The primary provider's story, in fractions of the run: it works, then rate-limits part of its
 * calls as load builds, then fails outright, then recovers.
 */
enum Phase {
  HEALTHY(0.0, "healthy"),
  RATE_LIMITING(0.30, "rate-limiting 40% of calls (429, Retry-After 1s)"),
  OUTAGE(0.55, "outage (every call 503)"),
  RECOVERED(0.70, "recovered");

  /** The primary's usual answer time: enough for calls to overlap. */
  static final Duration LATENCY = Duration.ofMillis(60);
  static final double RATE_LIMITED_SHARE = 0.4;
  private static final long SEED = 42;

  final double startsAt;
  final String description;

  Phase(double startsAt, String description) {
    this.startsAt = startsAt;
    this.description = description;
  }

  /** When this phase starts, {@code run} after the app's first call. */
  Duration start(Duration run) {
    return Duration.ofMillis(Math.round(run.toMillis() * startsAt));
  }

  /** Makes the primary behave as in this phase. */
  void apply(FaultScript script) {
    switch (this) {
      case HEALTHY, RECOVERED -> script.clear().always(Fault.latency(LATENCY));
      case RATE_LIMITING -> script.clear().withProbability(RATE_LIMITED_SHARE, SEED,
          Fault.rateLimited(Duration.ofSeconds(1)).withLatency(LATENCY));
      case OUTAGE -> script.clear().always(Fault.status(503).withLatency(LATENCY));
    }
  }

  static Phase at(Duration elapsed, Duration run) {
    Phase current = HEALTHY;
    for (Phase phase : values()) {
      if (elapsed.compareTo(phase.start(run)) >= 0) {
        current = phase;
      }
    }
    return current;
  }
}
