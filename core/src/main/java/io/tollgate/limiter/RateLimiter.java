package io.tollgate.limiter;

import java.util.ArrayList;
import java.util.List;

/**
 * The limiter every front end uses: reserve before a call, settle with what it really used.
 *
 * <p>Implementations: {@link InMemoryRateLimiter} (one JVM), {@link RedisRateLimiter} (a fleet,
 * standalone Redis or Cluster) and {@link ResilientRateLimiter} (Redis with a local guard when it is
 * unreachable). All pass the same contract tests.
 */
public interface RateLimiter extends AutoCloseable {

  /**
   * Checks every limit for {@code requests} and {@code tokens} and charges all of them, or none.
   *
   * @throws IllegalArgumentException when a cost is negative or both are zero
   */
  Decision reserve(Subject subject, Limits limits, long requests, long tokens);

  /** One request and {@code tokens}, the usual reservation of an LLM call. */
  default Decision reserve(Subject subject, Limits limits, long tokens) {
    return reserve(subject, limits, 1, tokens);
  }

  /**
   * Replaces the reserved token estimate with what the call used: refunds the difference (never
   * beyond capacity) or charges it (a bucket may go into debt, delaying later calls).
   *
   * @return true when applied; false when this reservation was already settled, released or expired
   */
  boolean settle(Reservation reservation, long actualTokens);

  /** Gives back everything a failed or cancelled call reserved; false when nothing was left to give. */
  boolean release(Reservation reservation);

  /**
   * Reserves on several subjects whose keys cannot share one hash tag, in order; when one denies,
   * those before it are released.
   */
  default JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
    List<Decision> decisions = new ArrayList<>(charges.size());
    for (Charge charge : charges) {
      Decision decision = reserve(charge.subject(), charge.limits(), requests, tokens);
      decisions.add(decision);
      if (!decision.allowed()) {
        decisions.forEach(earlier -> earlier.reservation().ifPresent(this::release));
        break;
      }
    }
    return new JointDecision(decisions);
  }

  /** Settles every reservation of an allowed joint decision with the same actual usage. */
  default void settleAll(JointDecision decision, long actualTokens) {
    decision.reservations().forEach(reservation -> settle(reservation, actualTokens));
  }

  /** Releases every reservation of an allowed joint decision. */
  default void releaseAll(JointDecision decision) {
    decision.reservations().forEach(this::release);
  }

  @Override
  default void close() {}
}
