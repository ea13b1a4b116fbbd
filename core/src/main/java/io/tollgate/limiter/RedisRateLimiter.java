package io.tollgate.limiter;

import io.tollgate.limiter.internal.LuaScript;
import io.tollgate.limiter.internal.Outcomes;
import io.tollgate.limiter.internal.ReservationIds;
import io.tollgate.limiter.internal.StepResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Limits shared by a fleet, in Redis standalone or Cluster: each reserve, settle or release is one
 * run of {@code lua/limiter.lua} on the subject's slot.
 *
 * <p>Errors of Redis (unreachable, timeout, CLUSTERDOWN) propagate as Jedis exceptions; wrap this
 * in {@link ResilientRateLimiter} for a policy. Cluster redirections (MOVED, ASK, TRYAGAIN) are
 * followed by the Jedis cluster client. NOSCRIPT (after a restart, failover or SCRIPT FLUSH) is
 * answered by sending the script itself to whichever node replied, which caches it there again.
 */
public final class RedisRateLimiter implements RateLimiter {

  private static final LuaScript SCRIPT = LuaScript.load("limiter");
  private static final String KEY_PREFIX = "tg:";

  private final Supplier<UnifiedJedis> connector;
  private final Duration reservationTtl;
  private final AutoCloseable onClose;
  private volatile UnifiedJedis redis;

  private RedisRateLimiter(Supplier<UnifiedJedis> connector, Duration reservationTtl,
      AutoCloseable onClose) {
    this.connector = Objects.requireNonNull(connector, "connector");
    this.onClose = Objects.requireNonNull(onClose, "onClose");
    if (reservationTtl.toMillis() <= 0) {
      throw new IllegalArgumentException("reservation TTL must be >= 1ms, was " + reservationTtl);
    }
    this.reservationTtl = reservationTtl;
  }

  /** Uses {@code redis} (a {@code RedisClient} or {@code RedisClusterClient}); the caller closes it. */
  public static RedisRateLimiter using(UnifiedJedis redis) {
    Objects.requireNonNull(redis, "redis");
    return new RedisRateLimiter(() -> redis, InMemoryRateLimiter.DEFAULT_RESERVATION_TTL, () -> { });
  }

  /** As {@link #using}, and closing this limiter closes the client. */
  public static RedisRateLimiter owning(UnifiedJedis redis, Duration reservationTtl) {
    Objects.requireNonNull(redis, "redis");
    return new RedisRateLimiter(() -> redis, reservationTtl, redis);
  }

  /**
   * Asks {@code connector} for its client on first use, and again on the next call while that
   * fails: a Cluster client cannot even be built while no node answers, and an app must start all
   * the same. Closing this limiter runs {@code onClose}.
   */
  public static RedisRateLimiter connecting(Supplier<UnifiedJedis> connector,
      Duration reservationTtl, AutoCloseable onClose) {
    return new RedisRateLimiter(connector, reservationTtl, onClose);
  }

  private UnifiedJedis redis() {
    UnifiedJedis client = redis;
    if (client == null) {
      synchronized (this) {
        client = redis;
        if (client == null) {
          client = Objects.requireNonNull(connector.get(), "connector gave no client");
          redis = client;
        }
      }
    }
    return client;
  }

  /** The key of a subject's state; every key of a subject shares its hash tag, so one slot. */
  public static String stateKey(Subject subject) {
    return KEY_PREFIX + subject.hashTag() + ":s";
  }

  static String recordKey(Subject subject, String reservationId) {
    return KEY_PREFIX + subject.hashTag() + ":r:" + reservationId;
  }

  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens) {
    Outcomes.checkCost(requests, tokens);
    if (Outcomes.neverFits(limits, requests, tokens)) {
      return Outcomes.neverFitsDecision(limits, false);
    }
    String id = ReservationIds.next();
    StepResult result = run(subject, id, limits, "reserve", requests, tokens);
    Reservation reservation = result.outcome() == 1
        ? new Reservation(id, subject, limits, requests, tokens, false)
        : null;
    return Outcomes.decision(limits, result, false, reservation);
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens) {
    if (actualTokens < 0) {
      throw new IllegalArgumentException("actual tokens must be >= 0, was " + actualTokens);
    }
    return run(reservation.subject(), reservation.id(), reservation.limits(), "settle",
        actualTokens, 0).outcome() == 1;
  }

  @Override
  public boolean release(Reservation reservation) {
    return run(reservation.subject(), reservation.id(), reservation.limits(), "release", 0, 0)
        .outcome() == 1;
  }

  private StepResult run(Subject subject, String id, Limits limits, String op, long first,
      long second) {
    List<String> keys = List.of(stateKey(subject), recordKey(subject, id));
    List<Limit> all = limits.all();
    List<String> args = new ArrayList<>(5 + all.size() * 6);
    args.add(op);
    args.add(Long.toString(first));
    args.add(Long.toString(second));
    args.add(Long.toString(reservationTtl.toMillis()));
    args.add(Integer.toString(all.size()));
    for (Limit limit : all) {
      args.add(limit.stateField());
      args.add(limit.dimension() == Dimension.REQUESTS ? "0" : "1");
      args.add(limit.algorithm() == Algorithm.TOKEN_BUCKET ? "0" : "1");
      args.add(Long.toString(limit.capacity()));
      args.add(Long.toString(limit.windowTicks()));
      args.add(Long.toString(limit.tickMicros()));
    }
    return parse(eval(keys, args));
  }

  private Object eval(List<String> keys, List<String> args) {
    try {
      return redis().evalsha(SCRIPT.sha1(), keys, args);
    } catch (JedisNoScriptException e) {
      // Routed by the same key, EVAL reaches the node that said NOSCRIPT and caches the script.
      return redis().eval(SCRIPT.source(), keys, args);
    }
  }

  private static StepResult parse(Object reply) {
    List<?> values = (List<?>) reply;
    long[] perLimit = new long[values.size() - 3];
    for (int i = 0; i < perLimit.length; i++) {
      perLimit[i] = (Long) values.get(i + 3);
    }
    return new StepResult((Long) values.get(0), (Long) values.get(1), (Long) values.get(2),
        perLimit);
  }

  @Override
  public void close() {
    try {
      onClose.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing the Redis client failed", e);
    }
  }
}
