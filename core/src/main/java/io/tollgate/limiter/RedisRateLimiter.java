package io.tollgate.limiter;

import io.tollgate.limiter.internal.Outcomes;
import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.limiter.internal.ReservationIds;
import io.tollgate.limiter.internal.RunArgs;
import io.tollgate.limiter.internal.StepResult;
import io.tollgate.redis.LuaScript;
import io.tollgate.redis.RedisScripts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Limits shared by a fleet, in Redis standalone or Cluster: each reserve, settle or release is one
 * run of {@code lua/limiter.lua} on the subject's slot, through {@link RedisScripts}.
 *
 * <p>Errors of Redis (unreachable, timeout, CLUSTERDOWN) propagate as thrown; wrap this in {@link
 * ResilientRateLimiter} for a policy. Cluster redirections and NOSCRIPT are the port's business.
 *
 * <p>Limits with {@link Limits#leases() leases} are served from local leases ({@link
 * LocalLeases}): one script call takes a batch of permits, the decisions are made here, and what
 * was not spent goes back when the lease ends or this limiter closes.
 *
 * <p>Redis keeps no record of a reservation: the {@link Reservation} is the record, settled or
 * released once within the reservation TTL. A settle whose tokens match the estimate changes
 * nothing and sends nothing; any other settle, and a release, is one adjust of the difference.
 * Adjusts are applied at most once: a run whose reply was lost is never sent again, since a refund
 * applied twice would admit more than the limits (see docs/limiter.md, "Settles").
 *
 * <p>{@link #settleEach} sends its adjusts in one pipeline per node. {@link #settleLater} settles
 * at once: the queue that batches settles in the background belongs to {@link
 * ResilientRateLimiter}.
 */
final class RedisRateLimiter implements RateLimiter {

  private static final LuaScript SCRIPT = LuaScript.loadSteps("limiter");

  private final RedisScripts redis;
  private final Duration reservationTtl;
  private final AutoCloseable onClose;
  private final LocalLeases leases;

  /**
   * Runs the script through {@code redis}; closing this limiter runs {@code onClose} (closes the
   * connection it owns, or nothing).
   */
  RedisRateLimiter(RedisScripts redis, Duration reservationTtl, AutoCloseable onClose) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.onClose = Objects.requireNonNull(onClose, "onClose");
    if (reservationTtl.toMillis() <= 0) {
      throw new IllegalArgumentException("reservation TTL must be >= 1ms, was " + reservationTtl);
    }
    this.reservationTtl = reservationTtl;
    this.leases = new LocalLeases(new ScriptLeases(), reservationTtl);
  }

  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens) {
    return reserve(subject, limits, requests, tokens, 0);
  }

  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens, long spend) {
    Outcomes.checkCost(requests, tokens);
    Outcomes.checkSpend(spend);
    if (Outcomes.neverFits(limits, requests, tokens, spend)) {
      return Outcomes.neverFitsDecision(limits, false);
    }
    if (limits.leases().isPresent()) {
      return leases.reserve(subject, limits, requests, tokens);
    }
    List<?> reply = (List<?>) eval(keys(subject),
        args(RunArgs.reserve(limits, requests, tokens, spend)));
    return reserved(subject, limits, requests, tokens, spend, parse(reply));
  }

  /** The decision a reserve's reply gives; allowed, it holds what the script took. */
  private Decision reserved(Subject subject, Limits limits, long requests, long tokens, long spend,
      StepResult result) {
    Reservation reservation = result.outcome() == 1
        ? new Reservation(ReservationIds.next(), subject, limits, requests, tokens, spend,
            result.nowMicros(), System.nanoTime() + reservationTtl.toNanos())
        : null;
    return Outcomes.decision(limits, result, false, reservation);
  }

  /**
   * On a standalone Redis, the reserves of a call charged to several subjects (a tenant and a
   * provider account) go in one pipeline: one round trip, not one per subject. The subjects cannot
   * share a script run (on a Cluster their keys live on different slots, so one script must not
   * span them anywhere), so, as {@link RateLimiter#reserveAll} does, a denial gives back what the
   * others took and the answer lists the decisions up to the first denial. A Cluster, leased
   * limits or a cost that never fits reserve in turn.
   */
  @Override
  public JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
    return reserveAll(charges, requests, tokens, 0);
  }

  @Override
  public JointDecision reserveAll(List<Charge> charges, long requests, long tokens, long spend) {
    if (pipelinesReserves(charges, requests, tokens, spend)) {
      return reserveAllPipelined(charges, requests, tokens, spend);
    }
    return Outcomes.inTurn(charges,
        charge -> reserve(charge.subject(), charge.limits(), requests, tokens, spend), this::release);
  }

  /** {@link #reserveAll} for charges {@link #pipelinesReserves} said yes to. */
  JointDecision reserveAllPipelined(List<Charge> charges, long requests, long tokens) {
    return reserveAllPipelined(charges, requests, tokens, 0);
  }

  JointDecision reserveAllPipelined(List<Charge> charges, long requests, long tokens, long spend) {
    List<RedisScripts.Call> calls = new ArrayList<>(charges.size());
    for (Charge charge : charges) {
      calls.add(new RedisScripts.Call(keys(charge.subject()),
          args(RunArgs.reserve(charge.limits(), requests, tokens, spend))));
    }
    List<Object> replies = redis.evalAll(SCRIPT, calls);
    List<Decision> decisions = new ArrayList<>(charges.size());
    int firstDenial = -1;
    for (int i = 0; i < charges.size(); i++) {
      Charge charge = charges.get(i);
      List<?> reply = (List<?>) replies.get(i);
      Decision decision = reserved(charge.subject(), charge.limits(), requests, tokens, spend,
          parse(reply));
      decisions.add(decision);
      if (!decision.allowed() && firstDenial < 0) {
        firstDenial = i;
      }
    }
    if (firstDenial < 0) {
      return new JointDecision(decisions);
    }
    decisions.forEach(decision -> decision.reservation().ifPresent(this::release));
    return new JointDecision(decisions.subList(0, firstDenial + 1));
  }

  /** True when {@link #reserveAll} sends {@code charges} in one pipeline (see there). */
  boolean pipelinesReserves(List<Charge> charges, long requests, long tokens) {
    return pipelinesReserves(charges, requests, tokens, 0);
  }

  boolean pipelinesReserves(List<Charge> charges, long requests, long tokens, long spend) {
    // the client as it is: connecting is the first reserve's business, inside the caller's breaker
    if (charges.size() < 2 || !redis.pipelines()) {
      return false;
    }
    Outcomes.checkCost(requests, tokens);
    Outcomes.checkSpend(spend);
    for (Charge charge : charges) {
      if (charge.limits().leases().isPresent()
          || Outcomes.neverFits(charge.limits(), requests, tokens, spend)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens) {
    return settleEach(List.of(new Settlement(reservation, actualTokens))) == 1;
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens, long actualSpend) {
    return settleEach(List.of(new Settlement(reservation, actualTokens, actualSpend))) == 1;
  }

  /**
   * Leased ones in this JVM; the others as adjusts of what differs from the estimate, sent
   * together (see the class).
   */
  @Override
  public int settleEach(List<Settlement> settlements) {
    int applied = 0;
    List<RedisScripts.Call> adjusts = new ArrayList<>();
    for (Settlement settlement : settlements) {
      Reservation reservation = settlement.reservation();
      long actualTokens = settlement.actualTokens();
      if (reservation.leased()) {
        applied += leases.settle(reservation, actualTokens) ? 1 : 0;
      } else if (reservation.useOnce(System.nanoTime())) {
        applied++;
        long spend = settlement.actualSpend() - reservation.spend();
        if (actualTokens != reservation.tokens() || spend != 0) {
          adjusts.add(adjust(reservation, 0, actualTokens - reservation.tokens(), spend));
        }
      }
    }
    if (!adjusts.isEmpty()) {
      redis.evalAll(SCRIPT, adjusts);
    }
    return applied;
  }

  @Override
  public boolean release(Reservation reservation) {
    if (reservation.leased()) {
      return leases.release(reservation);
    }
    if (!reservation.useOnce(System.nanoTime())) {
      return false;
    }
    redis.evalAll(SCRIPT, List.of(adjust(reservation, -reservation.requests(),
        -reservation.tokens(), -reservation.spend())));
    return true;
  }

  @Override
  public void lowerRoom(Subject subject, Limits limits, long requestsRoom, long tokensRoom) {
    redis.evalAll(SCRIPT, List.of(new RedisScripts.Call(keys(subject),
        args(RunArgs.lower(limits, requestsRoom, tokensRoom)))));
  }

  /** Adds {@code requests}, {@code tokens} and {@code spend} (signed) to what {@code reservation} took. */
  private static RedisScripts.Call adjust(Reservation reservation, long requests, long tokens,
      long spend) {
    return new RedisScripts.Call(keys(reservation.subject()), args(RunArgs.adjust(
        reservation.limits(), requests, tokens, spend, reservation.takenAtMicros)));
  }

  /** Requests this JVM holds leased for {@code subject} under {@code limits} now. */
  long leasedRequests(Subject subject, Limits limits) {
    return leases.leasedRequests(subject, limits);
  }

  private static List<byte[]> keys(Subject subject) {
    return List.of(RedisKeys.stateKey(subject).getBytes(StandardCharsets.UTF_8));
  }

  private static List<byte[]> args(byte[] run) {
    return List.of(run);
  }

  private Object eval(List<byte[]> keys, List<byte[]> args) {
    return redis.eval(SCRIPT, keys, args);
  }

  private static StepResult parse(List<?> values) {
    long[] perLimit = new long[values.size() - 3];
    for (int i = 0; i < perLimit.length; i++) {
      perLimit[i] = (Long) values.get(i + 3);
    }
    return new StepResult((Long) values.get(0), (Long) values.get(1), (Long) values.get(2),
        perLimit);
  }

  /** The lease steps of the same script, for {@link LocalLeases}. */
  private final class ScriptLeases implements LeaseBackend {

    @Override
    public Grant lease(Subject subject, Limits limits, long requests, long tokens, long wantRequests,
        long wantTokens, long giveRequests, long giveTokens, long givenAtMicros) {
      List<?> reply = (List<?>) eval(keys(subject), args(RunArgs.lease(limits, requests, tokens,
          wantRequests, wantTokens, giveRequests, giveTokens, givenAtMicros)));
      int perLimit = limits.all().size() * 2;
      StepResult result = parse(reply.subList(0, 3 + perLimit));
      if (result.outcome() != 1) {
        return new Grant(result, 0, 0);
      }
      return new Grant(result, (Long) reply.get(3 + perLimit), (Long) reply.get(4 + perLimit));
    }

    @Override
    public void adjust(Subject subject, Limits limits, long requests, long tokens,
        long takenAtMicros) {
      // a give-back: at most once, like a settle's refund
      redis.evalAll(SCRIPT, List.of(new RedisScripts.Call(keys(subject),
          args(RunArgs.adjust(limits, requests, tokens, takenAtMicros)))));
    }
  }

  @Override
  public void close() {
    leases.close(); // gives back what is leased, while the client still works
    try {
      onClose.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing the Redis client failed", e);
    }
  }
}
