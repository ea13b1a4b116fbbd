package io.tollgate.limiter;

import io.tollgate.limiter.internal.Outcomes;
import io.tollgate.redis.RedisConnection;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The limiter every front end uses: reserve before a call, settle with what it really used.
 *
 * <p>Made by its static factories, which are the whole of the choice:
 *
 * <ul>
 *   <li>{@link #inMemory()}: limits of one JVM; the default without Redis.
 *   <li>{@link #redis(RedisConnection)}: limits shared by a fleet in Redis, standalone or Cluster
 *       (one script run per decision); a failure of Redis is thrown to the caller. {@link
 *       #redis(URI)} makes and owns its connection.
 *   <li>{@link #resilient(RateLimiter, ResilienceConfig)}: a shared limiter with a policy for when
 *       it cannot answer (a local guard, or deny) and a background queue for {@link
 *       #settleLater}; what a configuration with {@code redis:} makes ({@code
 *       io.tollgate.config.Limiters}). It is a {@link LimiterHealth}.
 * </ul>
 *
 * <p>All pass the same contract tests. To decorate a limiter, extend {@link ForwardingRateLimiter}.
 *
 * <p>A call that has its answer settles with {@link #settleLater}: the resilient limiter applies
 * it on a thread of its own, so that the caller does not wait for the round trip.
 */
public interface RateLimiter extends AutoCloseable {

  /** How long an unsettled reservation can still be settled or released. */
  Duration DEFAULT_RESERVATION_TTL = Duration.ofMinutes(10);

  /** Limits of this JVM alone, on the system clock. */
  static RateLimiter inMemory() {
    return inMemory(MicroClock.system(), DEFAULT_RESERVATION_TTL);
  }

  /** Limits of this JVM alone, on {@code clock} (tests pass a fake one). */
  static RateLimiter inMemory(MicroClock clock, Duration reservationTtl) {
    return InMemoryRateLimiter.create(clock, reservationTtl);
  }

  /**
   * Limits shared through {@code redis}, whose client is made on first use (and again while that
   * fails); the caller closes {@code redis} after this limiter.
   */
  static RateLimiter redis(RedisConnection redis) {
    return redis(redis, DEFAULT_RESERVATION_TTL);
  }

  /** As {@link #redis(RedisConnection)}; a reservation can be settled for {@code reservationTtl}. */
  static RateLimiter redis(RedisConnection redis, Duration reservationTtl) {
    return new RedisRateLimiter(redis, reservationTtl, () -> { });
  }

  /** As {@link #redis(RedisConnection, Duration)}, and closing this limiter closes {@code redis}. */
  static RateLimiter redisOwning(RedisConnection redis, Duration reservationTtl) {
    return new RedisRateLimiter(redis, reservationTtl, Objects.requireNonNull(redis, "redis"));
  }

  /**
   * Limits shared through a standalone Redis at {@code url} ({@code redis://} or {@code
   * rediss://}), on a connection of this limiter's own with the default timeout and pool.
   */
  static RateLimiter redis(URI url) {
    return redisOwning(RedisConnection.of(url), DEFAULT_RESERVATION_TTL);
  }

  /** {@code shared} with the default policy: {@link ResilienceConfig#ofDefaults()}. */
  static RateLimiter resilient(RateLimiter shared) {
    return resilient(shared, ResilienceConfig.ofDefaults());
  }

  /**
   * {@code shared} guarded by a breaker: while it cannot answer, {@code config}'s {@link
   * FailurePolicy} decides, and the decision is flagged {@link Decision#degraded()}. Closing it
   * closes {@code shared}. The limiter made is a {@link LimiterHealth}.
   */
  static RateLimiter resilient(RateLimiter shared, ResilienceConfig config) {
    return new ResilientRateLimiter(shared, Objects.requireNonNull(config, "config"));
  }

  /**
   * Checks every limit for {@code requests} and {@code tokens} and charges all of them, or none.
   *
   * @throws IllegalArgumentException when a cost is negative or both are zero
   */
  Decision reserve(Subject subject, Limits limits, long requests, long tokens);

  /**
   * As {@link #reserve(Subject, Limits, long, long)}, and {@code spend} micro-dollars on the limits
   * of spend ({@link Dimension#SPEND}), in the same step. A limiter that does not count spend
   * accepts only a spend of 0.
   */
  default Decision reserve(Subject subject, Limits limits, long requests, long tokens, long spend) {
    if (spend == 0) {
      return reserve(subject, limits, requests, tokens);
    }
    throw new UnsupportedOperationException(getClass().getName() + " does not count spend");
  }

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
   * As {@link #settle(Reservation, long)}, and replaces the reserved spend with {@code actualSpend}
   * (micro-dollars) in the same step. A limiter that does not count spend accepts only the spend
   * reserved.
   */
  default boolean settle(Reservation reservation, long actualTokens, long actualSpend) {
    if (actualSpend == reservation.spend()) {
      return settle(reservation, actualTokens);
    }
    throw new UnsupportedOperationException(getClass().getName() + " does not count spend");
  }

  /**
   * Settles as {@link #settle} does, now or shortly after: the resilient limiter hands it to a
   * background thread ({@code tollgate-settle}) that sends queued settles together, and settles on
   * the caller's thread only when that queue is full or closed. It is applied exactly once all the
   * same; a reservation made meanwhile may still see the estimate charged. In memory it is
   * applied at once.
   *
   * @throws IllegalArgumentException when {@code actualTokens} is negative
   */
  default void settleLater(Reservation reservation, long actualTokens) {
    settle(reservation, actualTokens);
  }

  /** {@link #settleLater(Reservation, long)} with the spend the call really cost (micro-dollars). */
  default void settleLater(Reservation reservation, long actualTokens, long actualSpend) {
    settle(reservation, actualTokens, actualSpend);
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
      applied += settle(settlement.reservation(), settlement.actualTokens(),
          settlement.actualSpend()) ? 1 : 0;
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
   * Leaves {@code limits} of {@code subject} at most {@code requestsRoom} requests and {@code
   * tokensRoom} tokens of room, each limit by its dimension (-1 leaves a dimension as it is): what a
   * provider reports left of its own limits, when that is less than Tollgate holds. Never raises
   * room, so never admits more than the limits. Best effort: a limiter that cannot reach its
   * backend drops it.
   */
  default void lowerRoom(Subject subject, Limits limits, long requestsRoom, long tokensRoom) {}

  /**
   * Reserves on several subjects whose keys cannot share one hash tag, in order; when one denies,
   * those before it are released.
   */
  default JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
    return Outcomes.inTurn(charges,
        charge -> reserve(charge.subject(), charge.limits(), requests, tokens), this::release);
  }

  /**
   * As {@link #reserveAll(List, long, long)}, and {@code spend} micro-dollars on each charge's
   * limits of spend.
   */
  default JointDecision reserveAll(List<Charge> charges, long requests, long tokens, long spend) {
    if (spend == 0) {
      return reserveAll(charges, requests, tokens);
    }
    return Outcomes.inTurn(charges,
        charge -> reserve(charge.subject(), charge.limits(), requests, tokens, spend), this::release);
  }

  /** Settles every reservation of an allowed joint decision with the same actual usage. */
  default void settleAll(JointDecision decision, long actualTokens) {
    decision.reservations().forEach(reservation -> settle(reservation, actualTokens));
  }

  /** {@link #settleLater} for every reservation of an allowed joint decision. */
  default void settleAllLater(JointDecision decision, long actualTokens) {
    decision.reservations().forEach(reservation -> settleLater(reservation, actualTokens));
  }

  /** {@link #settleAllLater(JointDecision, long)} with the spend the call really cost. */
  default void settleAllLater(JointDecision decision, long actualTokens, long actualSpend) {
    decision.reservations().forEach(reservation ->
        settleLater(reservation, actualTokens, actualSpend));
  }

  /** Releases every reservation of an allowed joint decision. */
  default void releaseAll(JointDecision decision) {
    decision.reservations().forEach(this::release);
  }

  /**
   * Closes the backend; the resilient limiter first applies what {@link #settleLater} still holds
   * (bounded).
   */
  @Override
  default void close() {}
}
