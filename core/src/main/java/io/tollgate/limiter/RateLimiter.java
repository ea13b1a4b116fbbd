package io.tollgate.limiter;

import io.tollgate.limiter.internal.Outcomes;
import java.time.Duration;
import java.util.List;

/**
 * The limiter every front end uses: reserve before a call, settle with what it really used.
 *
 * <p>Implementations: {@link InMemoryRateLimiter} (one JVM), {@link RedisRateLimiter} (a fleet,
 * standalone Redis or Cluster) and {@link ResilientRateLimiter} (Redis with a local guard when it is
 * unreachable). All pass the same contract tests.
 *
 * <p>A call that has its answer settles with {@link #settleLater}: the shared backends apply it on
 * a thread of their own, so that the caller does not wait for the round trip.
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

  /**
   * Settles as {@link #settle} does, now or shortly after: the Redis limiters hand it to a
   * background thread ({@code tollgate-settle}) that sends queued settles together, and settle on
   * the caller's thread only when that queue is full or closed. It is applied exactly once all the
   * same; a reservation made meanwhile may still see the estimate charged. In memory it is
   * applied at once.
   *
   * @throws IllegalArgumentException when {@code actualTokens} is negative
   */
  default void settleLater(Reservation reservation, long actualTokens) {
    settle(reservation, actualTokens);
  }

  /**
   * Settles each as {@link #settle} would, in one go where the backend can (one pipeline on a
   * standalone Redis).
   *
   * @return how many were applied; a duplicate, or one settled or released before, is not
   */
  default int settleEach(List<Settlement> settlements) {
    int applied = 0;
    for (Settlement settlement : settlements) {
      applied += settle(settlement.reservation(), settlement.actualTokens()) ? 1 : 0;
    }
    return applied;
  }

  /**
   * Waits until every settle handed to {@link #settleLater} before this call is applied, or given
   * up on as a settle that cannot reach the backend is (for tests, and before reading the backend).
   *
   * @return false when {@code timeout} passed first
   */
  default boolean awaitSettled(Duration timeout) {
    return true;
  }

  /** Gives back everything a failed or cancelled call reserved; false when nothing was left to give. */
  boolean release(Reservation reservation);

  /**
   * Reserves on several subjects whose keys cannot share one hash tag, in order; when one denies,
   * those before it are released.
   */
  default JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
    return Outcomes.inTurn(charges,
        charge -> reserve(charge.subject(), charge.limits(), requests, tokens), this::release);
  }

  /** Settles every reservation of an allowed joint decision with the same actual usage. */
  default void settleAll(JointDecision decision, long actualTokens) {
    decision.reservations().forEach(reservation -> settle(reservation, actualTokens));
  }

  /** {@link #settleLater} for every reservation of an allowed joint decision. */
  default void settleAllLater(JointDecision decision, long actualTokens) {
    decision.reservations().forEach(reservation -> settleLater(reservation, actualTokens));
  }

  /** Releases every reservation of an allowed joint decision. */
  default void releaseAll(JointDecision decision) {
    decision.reservations().forEach(this::release);
  }

  /** Closes the backend; a Redis limiter first applies what {@link #settleLater} still holds (bounded). */
  @Override
  default void close() {}
}
