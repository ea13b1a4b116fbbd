package io.tollgate.demo;

import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.FaultScript;
import java.time.Duration;

/**
 * The primary provider's story, in fractions of the run: it works; then, under the app's load, it
 * can take only {@link #OVERLOADED_CAPACITY} calls a second and answers the rest with 429; then it
 * fails outright; then it recovers.
 */
enum Phase {
  HEALTHY(0.0, "healthy"),
  OVERLOADED(0.30, "takes " + Phase.OVERLOADED_CAPACITY + " calls a second, 429 (Retry-After 1s) beyond"),
  OUTAGE(0.55, "outage (every call 503)"),
  RECOVERED(0.70, "recovered");

  /** The primary's usual answer time: enough for calls to overlap. */
  static final Duration LATENCY = Duration.ofMillis(60);
  /** Calls per second the primary answers while overloaded; the app sends about twice that. */
  static final int OVERLOADED_CAPACITY = 8;

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

  /**
   * Makes the primary behave as in this phase, given how many calls it has received in the current
   * second: the driver calls this every {@link PrimaryLoad#TICK}.
   */
  void apply(FaultScript script, int callsThisSecond) {
    Fault fault = switch (this) {
      case HEALTHY, RECOVERED -> Fault.latency(LATENCY);
      case OVERLOADED -> callsThisSecond >= OVERLOADED_CAPACITY
          ? Fault.rateLimited(Duration.ofSeconds(1)).withLatency(LATENCY)
          : Fault.latency(LATENCY);
      case OUTAGE -> Fault.status(503).withLatency(LATENCY);
    };
    script.always(fault);
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
