package io.tollgate.limiter;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.tollgate.limiter.internal.Outcomes;
import io.tollgate.redis.RedisFailures;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A shared (Redis) limiter with a policy for when it cannot answer.
 *
 * <p>Each Redis call is bounded by the client's timeout. A breaker around Redis opens after
 * consecutive failures, so a dead Redis then costs no timeout per call; every {@link
 * #DEFAULT_PROBE_AFTER} one call probes it and, on success, shared decisions resume. While the
 * breaker is open or a call fails, the {@link FailurePolicy} decides, and the decision is flagged
 * {@link Decision#degraded()}. A degraded episode is logged once when it starts, with the failure
 * that started it (a refused login named as such), and once when it ends.
 *
 * <p>{@link #settleLater} hands settles of shared reservations to a background thread ({@link
 * SettleQueue}), which applies each batch through the same breaker: a batch that cannot reach
 * Redis is dropped as a settle is. Closing waits for that queue, at most {@link
 * ResilienceConfig#drainOnClose()}, before the shared limiter closes.
 *
 * <p>This limiter is the one owner of a {@link SettleQueue}: it makes it and closes it. The queue
 * belongs here, not to the shared limiter, because a batch must go through the breaker that
 * guards Redis, like any other call: a Redis that is down then costs no timeout per batch, and a
 * batch that fails counts towards opening the breaker. Closing drains it before the shared limiter
 * (and its connection) closes.
 */
final class ResilientRateLimiter implements RateLimiter, LimiterHealth {

  private static final System.Logger LOG = System.getLogger(ResilientRateLimiter.class.getName());

  private final RateLimiter shared;
  private final InMemoryRateLimiter local;
  private final FailurePolicy policy;
  private final double localShare;
  private final CircuitBreaker breaker;
  private final MicroClock clock;
  private final AtomicLong degradedSinceMicros = new AtomicLong(-1);
  private final AtomicLong pastDegradedMicros = new AtomicLong();
  private final AtomicReference<RuntimeException> lastFailure = new AtomicReference<>();
  private final AtomicLong poolExhaustions = new AtomicLong();
  private final SettleQueue settles;

  ResilientRateLimiter(RateLimiter shared, ResilienceConfig config) {
    this.clock = config.clock();
    this.shared = Objects.requireNonNull(shared, "shared");
    this.policy = config.onFailure();
    this.localShare = config.localShare();
    this.local = InMemoryRateLimiter.localGuard(config.clock(), config.reservationTtl());
    this.settles = new SettleQueue(this::settleEach, config.drainOnClose());
    this.breaker = CircuitBreaker.of("tollgate-redis", CircuitBreakerConfig.custom()
        .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
        .slidingWindowSize(2)
        .minimumNumberOfCalls(2)
        .failureRateThreshold(100)
        .waitDurationInOpenState(config.probeAfter())
        .permittedNumberOfCallsInHalfOpenState(1)
        .recordException(RedisFailures::isRedisFailure)
        .build());
    breaker.getEventPublisher().onStateTransition(event -> {
      CircuitBreaker.StateTransition transition = event.getStateTransition();
      switch (transition.getToState()) {
        // a failed probe goes HALF_OPEN -> OPEN again: the episode was already reported
        case OPEN -> {
          if (transition.getFromState() == CircuitBreaker.State.CLOSED) {
            degradedSinceMicros.set(clock.nowMicros());
            LOG.log(Level.WARNING, "Redis limiter unreachable: {0}; deciding {1} until it answers",
                RedisFailures.describe(lastFailure.get()),
                policy == FailurePolicy.FAIL_OPEN
                    ? "locally with " + localShare + " of each limit" : "to deny (fail-closed)");
          }
        }
        case CLOSED -> {
          long since = degradedSinceMicros.getAndSet(-1);
          if (since >= 0) {
            pastDegradedMicros.addAndGet(Math.max(0, clock.nowMicros() - since));
          }
          LOG.log(Level.INFO, "Redis limiter answers again; shared decisions resumed");
        }
        default -> { }
      }
    });
  }

  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens) {
    return reserve(subject, limits, requests, tokens, 0);
  }

  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens, long spend) {
    Outcomes.checkCost(requests, tokens);
    Outcomes.checkSpend(spend);
    Decision decision = onShared(() -> shared.reserve(subject, limits, requests, tokens, spend));
    return decision != null ? decision : degraded(subject, limits, requests, tokens, spend);
  }

  /**
   * One breaker call for the lot when the shared limiter sends the subjects' reserves together
   * ({@link RedisRateLimiter#reserveAll}, asked once here whether it does); Redis failing, each subject is decided by the failure
   * policy, in turn. Otherwise each subject in turn through {@link #reserve}.
   */
  @Override
  public JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
    return reserveAll(charges, requests, tokens, 0);
  }

  @Override
  public JointDecision reserveAll(List<Charge> charges, long requests, long tokens, long spend) {
    if (!(shared instanceof RedisRateLimiter redis
        && redis.pipelinesReserves(charges, requests, tokens, spend))) {
      return Outcomes.inTurn(charges,
          charge -> reserve(charge.subject(), charge.limits(), requests, tokens, spend),
          this::release);
    }
    JointDecision decision = onShared(() ->
        redis.reserveAllPipelined(charges, requests, tokens, spend));
    return decision != null ? decision : Outcomes.inTurn(charges,
        charge -> degraded(charge.subject(), charge.limits(), requests, tokens, spend),
        this::release);
  }

  private Decision degraded(Subject subject, Limits limits, long requests, long tokens,
      long spend) {
    if (limits.onFailure().orElse(policy) == FailurePolicy.FAIL_OPEN) {
      Decision decision = local.reserve(subject, limits.scaled(localShare), requests, tokens, spend);
      return new Decision(decision.outcome(), decision.limits(), decision.retryAfter(), true,
          decision.reservation());
    }
    if (Outcomes.neverFits(limits, requests, tokens, spend)) {
      return Outcomes.neverFitsDecision(limits, true);
    }
    List<LimitState> unknown = new ArrayList<>();
    limits.all().forEach(limit -> unknown.add(new LimitState(limit, 0, limit.window())));
    Duration retry = Duration.ofMillis(Math.max(1,
        breaker.getState() == CircuitBreaker.State.OPEN
            ? ResilienceConfig.DEFAULT_PROBE_AFTER.toMillis() : 1));
    return new Decision(Outcome.DENIED, unknown, retry, true, Optional.empty());
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens) {
    return settle(reservation, actualTokens, reservation.spend());
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens, long actualSpend) {
    if (reservation.local()) {
      return local.settle(reservation, actualTokens, actualSpend);
    }
    return appliedOnShared(() ->
        shared.settle(reservation, actualTokens, actualSpend) ? 1 : 0) == 1;
  }

  @Override
  public void settleLater(Reservation reservation, long actualTokens) {
    settleLater(reservation, actualTokens, reservation.spend());
  }

  /** A local reservation is settled at once (in memory: cheaper than a hand-off). */
  @Override
  public void settleLater(Reservation reservation, long actualTokens, long actualSpend) {
    Settlement settlement = new Settlement(reservation, actualTokens, actualSpend);
    if (reservation.local() || !settles.offer(settlement)) {
      // in memory; or the queue is full or closed: on this thread, bounded by the Redis timeout
      settle(reservation, actualTokens, actualSpend);
    }
  }

  /** The local ones in memory, the shared ones in one call of the shared limiter, through the breaker. */
  @Override
  public int settleEach(List<Settlement> settlements) {
    int applied = 0;
    List<Settlement> onShared = new ArrayList<>(settlements.size());
    for (Settlement settlement : settlements) {
      if (settlement.reservation().local()) {
        applied += local.settle(settlement.reservation(), settlement.actualTokens(),
            settlement.actualSpend()) ? 1 : 0;
      } else {
        onShared.add(settlement);
      }
    }
    return onShared.isEmpty()
        ? applied : applied + appliedOnShared(() -> shared.settleEach(onShared));
  }

  @Override
  public boolean awaitSettled(Duration timeout) {
    return settles.awaitSettled(timeout);
  }

  @Override
  public boolean release(Reservation reservation) {
    if (reservation.local()) {
      return local.release(reservation);
    }
    return appliedOnShared(() -> shared.release(reservation) ? 1 : 0) == 1;
  }

  /** On the shared limiter only: the local guard is a share of the limits, not the provider's view. */
  @Override
  public void lowerRoom(Subject subject, Limits limits, long requestsRoom, long tokensRoom) {
    onShared(() -> {
      shared.lowerRoom(subject, limits, requestsRoom, tokensRoom);
      return null;
    });
  }

  /**
   * A settle or release that cannot reach Redis is dropped: the estimate stays charged, which errs
   * on the side of the limit.
   *
   * @return what {@code call} returned (how many were applied), 0 when dropped
   */
  private int appliedOnShared(Supplier<Integer> call) {
    Integer applied = onShared(call);
    return applied == null ? 0 : applied;
  }

  /** {@code call} through the breaker; null when the breaker is open or Redis failed (counted). */
  private <T> T onShared(Supplier<T> call) {
    if (!breaker.tryAcquirePermission()) {
      return null;
    }
    long start = System.nanoTime();
    try {
      T result = call.get();
      breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
      return result;
    } catch (RuntimeException e) {
      if (!RedisFailures.isRedisFailure(e)) {
        throw e; // a bug, not Redis
      }
      if (RedisFailures.poolExhausted(e)) {
        // Redis answers; this JVM has more calls in flight than connections: not an outage
        poolExhaustions.incrementAndGet();
        breaker.releasePermission();
        return null;
      }
      lastFailure.set(e); // before onError, which may open the breaker and log the episode
      breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
      LOG.log(Level.DEBUG, "Redis limiter call failed", e);
      return null;
    }
  }

  @Override
  public boolean isDegraded() {
    return breaker.getState() != CircuitBreaker.State.CLOSED;
  }

  @Override
  public long poolExhaustions() {
    return poolExhaustions.get();
  }

  @Override
  public Duration degradedTime() {
    long since = degradedSinceMicros.get();
    long current = since < 0 ? 0 : Math.max(0, clock.nowMicros() - since);
    return Duration.ofNanos((pastDegradedMicros.get() + current) * 1_000);
  }

  @Override
  public void close() {
    settles.close(); // while Redis can still be reached
    shared.close();
  }
}
