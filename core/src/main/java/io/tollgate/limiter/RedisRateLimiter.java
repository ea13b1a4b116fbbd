package io.tollgate.limiter;

import io.tollgate.limiter.internal.LimitArgs;
import io.tollgate.limiter.internal.Outcomes;
import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.limiter.internal.ReservationIds;
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
 * <p>{@link #settleEach} sends a batch of settles in one pipeline on a standalone Redis; on a
 * Cluster one by one, each routed by its own key. {@link #settleLater} settles at once: the queue
 * that batches settles in the background belongs to {@link ResilientRateLimiter}.
 */
final class RedisRateLimiter implements RateLimiter {

  private static final LuaScript SCRIPT = LuaScript.load("limiter");

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
    Outcomes.checkCost(requests, tokens);
    if (Outcomes.neverFits(limits, requests, tokens)) {
      return Outcomes.neverFitsDecision(limits, false);
    }
    if (limits.leases().isPresent()) {
      return leases.reserve(subject, limits, requests, tokens);
    }
    String id = ReservationIds.next();
    List<?> reply = (List<?>) eval(keys(subject, id), reserveArgs(limits, requests, tokens));
    return reserved(subject, limits, id, requests, tokens, parse(reply));
  }

  private List<byte[]> reserveArgs(Limits limits, long requests, long tokens) {
    return args(limits, "reserve", requests, tokens, reservationTtl.toMillis(), List.of());
  }

  /** The decision a reserve's reply gives; allowed, it holds the reservation the script recorded. */
  private static Decision reserved(Subject subject, Limits limits, String id, long requests,
      long tokens, StepResult result) {
    Reservation reservation = result.outcome() == 1
        ? new Reservation(id, subject, limits, requests, tokens, false)
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
    return pipelinesReserves(charges, requests, tokens)
        ? reserveAllPipelined(charges, requests, tokens)
        : RateLimiter.super.reserveAll(charges, requests, tokens);
  }

  /** {@link #reserveAll} for charges {@link #pipelinesReserves} said yes to. */
  JointDecision reserveAllPipelined(List<Charge> charges, long requests, long tokens) {
    List<String> ids = new ArrayList<>(charges.size());
    List<RedisScripts.Call> calls = new ArrayList<>(charges.size());
    for (Charge charge : charges) {
      String id = ReservationIds.next();
      ids.add(id);
      calls.add(new RedisScripts.Call(keys(charge.subject(), id),
          reserveArgs(charge.limits(), requests, tokens)));
    }
    List<Object> replies = redis.evalAll(SCRIPT, calls);
    List<Decision> decisions = new ArrayList<>(charges.size());
    int firstDenial = -1;
    for (int i = 0; i < charges.size(); i++) {
      Charge charge = charges.get(i);
      List<?> reply = (List<?>) replies.get(i);
      Decision decision = reserved(charge.subject(), charge.limits(), ids.get(i), requests, tokens,
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
    // the client as it is: connecting is the first reserve's business, inside the caller's breaker
    if (charges.size() < 2 || !redis.pipelines()) {
      return false;
    }
    Outcomes.checkCost(requests, tokens);
    for (Charge charge : charges) {
      if (charge.limits().leases().isPresent()
          || Outcomes.neverFits(charge.limits(), requests, tokens)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens) {
    if (actualTokens < 0) {
      throw new IllegalArgumentException("actual tokens must be >= 0, was " + actualTokens);
    }
    if (reservation.leased()) {
      return leases.settle(reservation, actualTokens);
    }
    return parse(run(reservation.subject(), reservation.id(), reservation.limits(), "settle",
        actualTokens, 0, 0, List.of())).outcome() == 1;
  }

  /** Leased ones in this JVM; the others in one pipeline on a standalone Redis (see the class). */
  @Override
  public int settleEach(List<Settlement> settlements) {
    int applied = 0;
    List<Settlement> recorded = new ArrayList<>(settlements.size());
    for (Settlement settlement : settlements) {
      if (settlement.reservation().leased()) {
        applied += settle(settlement.reservation(), settlement.actualTokens()) ? 1 : 0;
      } else {
        recorded.add(settlement);
      }
    }
    return recorded.isEmpty() ? applied : applied + settleRecorded(recorded);
  }

  private int settleRecorded(List<Settlement> settlements) {
    List<RedisScripts.Call> calls = new ArrayList<>(settlements.size());
    for (Settlement settlement : settlements) {
      Reservation reservation = settlement.reservation();
      calls.add(new RedisScripts.Call(keys(reservation.subject(), reservation.id()),
          args(reservation.limits(), "settle", settlement.actualTokens(), 0, 0, List.of())));
    }
    int applied = 0;
    for (Object reply : redis.evalAll(SCRIPT, calls)) {
      applied += parse((List<?>) reply).outcome() == 1 ? 1 : 0;
    }
    return applied;
  }

  @Override
  public boolean release(Reservation reservation) {
    if (reservation.leased()) {
      return leases.release(reservation);
    }
    return parse(run(reservation.subject(), reservation.id(), reservation.limits(), "release", 0, 0,
        0, List.of())).outcome() == 1;
  }

  /** Requests this JVM holds leased for {@code subject} under {@code limits} now. */
  long leasedRequests(Subject subject, Limits limits) {
    return leases.leasedRequests(subject, limits);
  }

  /** Runs the script; {@code id} names the reservation record, null for ops that keep none. */
  private List<?> run(Subject subject, String id, Limits limits, String op, long first,
      long second, long third, List<String> more) {
    return (List<?>) eval(keys(subject, id), args(limits, op, first, second, third, more));
  }

  private static List<byte[]> keys(Subject subject, String id) {
    byte[] state = RedisKeys.stateKey(subject).getBytes(StandardCharsets.UTF_8);
    return id == null
        ? List.of(state)
        : List.of(state, RedisKeys.recordKey(subject, id).getBytes(StandardCharsets.UTF_8));
  }

  /** op, three numbers, the limits (encoded once per set, {@link LimitArgs}), then {@code more}. */
  private static List<byte[]> args(Limits limits, String op, long first, long second, long third,
      List<String> more) {
    List<byte[]> limitArgs = LimitArgs.of(limits);
    List<byte[]> args = new ArrayList<>(4 + limitArgs.size() + more.size());
    args.add(op.getBytes(StandardCharsets.US_ASCII));
    args.add(LimitArgs.number(first));
    args.add(LimitArgs.number(second));
    args.add(LimitArgs.number(third));
    args.addAll(limitArgs);
    for (String arg : more) {
      args.add(arg.getBytes(StandardCharsets.UTF_8));
    }
    return args;
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
      List<?> reply = run(subject, null, limits, "lease", requests, tokens, 0, List.of(
          Long.toString(wantRequests), Long.toString(wantTokens), Long.toString(giveRequests),
          Long.toString(giveTokens), Long.toString(givenAtMicros)));
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
      run(subject, null, limits, "adjust", requests, tokens, takenAtMicros, List.of());
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
