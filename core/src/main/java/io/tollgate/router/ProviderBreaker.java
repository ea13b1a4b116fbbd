package io.tollgate.router;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The circuit breaker of one provider. Ask before each call, report after it:
 *
 * <pre>{@code
 * ProviderBreaker openai = breakers.breaker("openai");
 * if (!openai.tryAcquirePermission()) {
 *   Thread.sleep(breakers.switchOverDelay().toMillis());   // when the fleet opened it: see "Jitter"
 *   return fallback.get();
 * }
 * long started = System.nanoTime();
 * try {
 *   String answer = call.get();
 *   Duration latency = Duration.ofNanos(System.nanoTime() - started);
 *   openai.onSuccess(latency);                       // or onFailure(FailureKind.RATE_LIMITED | SERVER_ERROR | TIMEOUT | CONNECTION)
 *   return answer;
 * } catch (RuntimeException e) {
 *   openai.onFailure(FailureKind.CONNECTION);
 *   throw e;
 * }
 * }</pre>
 *
 * <p>(docs/breakers.md; {@code BreakerExample} in samples/api-examples.)
 *
 * <p>Closed, it counts consecutive failures; {@code failures} of them within {@code window} open
 * it for {@code open-for}. Then exactly one call, the probe, is permitted: its success closes the
 * breaker, its failure opens it again for twice as long as the last time, up to
 * {@code max-open-for}. A call permitted but not made must be given back with
 * {@link #releasePermission()}, or a probe would be lost until the probe timeout.
 *
 * <p>Every method is thread-safe, never blocks on I/O and never throws because Redis is
 * unreachable; {@link #tryAcquirePermission()} on a closed breaker is a single volatile read.
 */
public interface ProviderBreaker {

  /** The provider's configured name. */
  String name();

  /**
   * True when a call may go now: the breaker is closed, or it is half-open and this call is the
   * probe (with shared state: this instance was elected to send the fleet's one probe). False
   * while open, and while half-open once the probe is out or another instance sends it.
   */
  boolean tryAcquirePermission();

  /** Gives back a permission that was not used for a call, so that a probe is not lost. */
  void releasePermission();

  /** A permitted call succeeded; {@code latency} is kept for health scores. */
  void onSuccess(Duration latency);

  /** A permitted call failed with a 429, a 5xx, a timeout or a broken connection. */
  void onFailure(FailureKind kind);

  /** The state now (an open breaker whose time is over is reported half-open). */
  BreakerState state();

  /** Who opened the breaker; empty while closed. */
  Optional<OpenedBy> openedBy();

  /** Until when calls are refused (in the past once half-open); empty while closed. */
  Optional<Instant> openUntil();
}
