package io.tollgate.limiter.internal;

import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import java.util.List;
import java.util.Map;

/**
 * The in-memory twin of {@code lua/limiter.lua}: the same integer arithmetic, step by step, on a
 * map of the same fields, so that one JVM behaves exactly as a fleet does on Redis. Change one,
 * change the other; the contract tests run both.
 */
public final class LimiterStep {

  static final long FULL_DEBT_WINDOWS = 3;

  private LimiterStep() {}

  /** Reserve; writes {@code state} only when allowed. */
  public static StepResult reserve(Map<String, Long> state, Limits limits, long requests, long tokens,
      long now) {
    return reserve(state, limits, requests, tokens, 0, now);
  }

  /** Reserve with spend (micro-dollars); writes {@code state} only when allowed. */
  public static StepResult reserve(Map<String, Long> state, Limits limits, long requests, long tokens,
      long spend, long now) {
    return run(state, limits, true, requests, tokens, spend, 0, now, -1, -1);
  }

  /**
   * Settle or release (a negative or positive change per dimension) against a reservation made at
   * {@code reservedAt}; always writes.
   */
  public static StepResult adjust(Map<String, Long> state, Limits limits, long deltaRequests,
      long deltaTokens, long reservedAt, long now) {
    return adjust(state, limits, deltaRequests, deltaTokens, 0, reservedAt, now);
  }

  /** As {@link #adjust(Map, Limits, long, long, long, long)}, with a change of spend. */
  public static StepResult adjust(Map<String, Long> state, Limits limits, long deltaRequests,
      long deltaTokens, long deltaSpend, long reservedAt, long now) {
    return run(state, limits, false, deltaRequests, deltaTokens, deltaSpend, reservedAt, now, -1, -1);
  }

  /**
   * Leaves each limit at most {@code requestsRoom} or {@code tokensRoom} of room (-1: that
   * dimension as it is); never raises room; always writes.
   */
  public static StepResult lower(Map<String, Long> state, Limits limits, long requestsRoom,
      long tokensRoom, long now) {
    return run(state, limits, false, 0, 0, 0, 0, now, requestsRoom, tokensRoom);
  }

  private static StepResult run(Map<String, Long> state, Limits limits, boolean reserve,
      long deltaRequests, long deltaTokens, long deltaSpend, long reservedAt, long now,
      long requestsRoom, long tokensRoom) {
    Long lastStored = state.get("t");
    long last = lastStored == null ? now : lastStored;
    if (last > now) {
      now = last;
    }
    List<Limit> all = limits.all();
    int n = all.size();
    long[] level = new long[n];
    long[] current = new long[n];
    long[] previous = new long[n];
    long[] index = new long[n];
    long[] elapsedInWindow = new long[n];
    long[] periodEnds = new long[n];
    boolean allowed = true;
    long wait = 0;

    long[] deltas = new long[n];
    for (int i = 0; i < n; i++) {
      Limit limit = all.get(i);
      long capacity = limit.capacity();
      long window = limit.windowTicks();
      long tick = limit.tickMicros();
      long delta = switch (limit.dimension()) {
        case REQUESTS -> deltaRequests;
        case TOKENS -> deltaTokens;
        case SPEND -> deltaSpend;
      };
      if (!reserve) {
        // A charge beyond the debt cap changes nothing more, and capped, delta × window cannot
        // overflow (the script's doubles saturate at the cap the same way).
        delta = Math.min(delta, (FULL_DEBT_WINDOWS + 1) * capacity);
      }
      deltas[i] = delta;
      long nowTick = Math.floorDiv(now, tick);
      long intoTick = now - nowTick * tick;
      String field = limit.stateField();
      if (limit.algorithm() == Algorithm.CALENDAR) {
        CalendarPeriod period = CalendarPeriod.of(now, limit.monthly());
        long cur = state.getOrDefault(field, 0L);
        if (state.getOrDefault(field + ":w", period.index()) != period.index()) {
          cur = 0;
        }
        if (reserve && capacity - cur < delta + limit.keep()) {
          allowed = false;
          wait = Math.max(wait, period.endsAt() - now);
        }
        index[i] = period.index();
        periodEnds[i] = period.endsAt();
        current[i] = cur;
      } else if (limit.algorithm() == Algorithm.TOKEN_BUCKET) {
        long full = capacity * window;
        Long stored = state.get(field);
        Long groupClock = limit.group().isEmpty() ? null : state.get(clockField(limit));
        long since = groupClock != null ? groupClock : last;
        long l;
        if (stored == null) {
          l = full;
        } else {
          l = stored;
          long elapsed = nowTick - Math.floorDiv(since, tick);
          if (elapsed > 0) {
            l = elapsed >= ceilDiv(full - l, capacity) ? full : l + elapsed * capacity;
          }
        }
        long need = delta + limit.keep();
        if (reserve && l < need * window) {
          allowed = false;
          wait = Math.max(wait, ceilDiv(need * window - l, capacity) * tick - intoTick);
        }
        long lowest = lowest(limit, requestsRoom, tokensRoom);
        if (lowest >= 0 && Math.floorDiv(l, window) > lowest) {
          l = lowest * window;
        }
        level[i] = l;
      } else {
        long idx = Math.floorDiv(nowTick, window);
        long elapsed = nowTick - idx * window;
        long cur = state.getOrDefault(field, 0L);
        long prev = state.getOrDefault(field + ":p", 0L);
        long at = state.getOrDefault(field + ":w", idx);
        if (at == idx - 1) {
          prev = cur;
          cur = 0;
        } else if (at < idx - 1) {
          prev = 0;
          cur = 0;
        }
        long room = (capacity - cur) * window - prev * (window - elapsed);
        long need = delta + limit.keep();
        if (reserve && room < need * window) {
          allowed = false;
          long ticks;
          if (cur + need <= capacity) {
            ticks = window - Math.floorDiv((capacity - cur - need) * window, prev) - elapsed;
          } else {
            long needed = Math.max(0, window - Math.floorDiv((capacity - need) * window, cur));
            ticks = window - elapsed + needed;
          }
          wait = Math.max(wait, ticks * tick - intoTick);
        }
        long lowest = lowest(limit, requestsRoom, tokensRoom);
        if (lowest >= 0 && Math.floorDiv(room, window) > lowest) {
          cur += Math.floorDiv(room, window) - lowest;
        }
        index[i] = idx;
        elapsedInWindow[i] = elapsed;
        current[i] = cur;
        previous[i] = prev;
      }
    }

    boolean change = !reserve || allowed;
    long[] perLimit = new long[n * 2];
    for (int i = 0; i < n; i++) {
      Limit limit = all.get(i);
      long capacity = limit.capacity();
      long window = limit.windowTicks();
      long tick = limit.tickMicros();
      long delta = deltas[i];
      String field = limit.stateField();
      long remaining;
      long untilFull;
      if (limit.algorithm() == Algorithm.CALENDAR) {
        long cur = current[i];
        if (change && delta > 0) {
          cur = Math.min(cur + delta, (FULL_DEBT_WINDOWS + 1) * capacity);
        } else if (change && delta < 0
            && CalendarPeriod.of(reservedAt, limit.monthly()).index() == index[i]) {
          // a refund goes back only to the day or month that was charged
          cur = Math.max(0, cur + delta);
        }
        if (change) {
          state.put(field, cur);
          state.put(field + ":w", index[i]);
        }
        remaining = capacity - cur;
        untilFull = cur > 0 ? periodEnds[i] - now : 0;
      } else if (limit.algorithm() == Algorithm.TOKEN_BUCKET) {
        long full = capacity * window;
        long l = level[i];
        if (change) {
          l = Math.max(Math.min(l - delta * window, full), -FULL_DEBT_WINDOWS * full);
          state.put(field, l);
          if (!limit.group().isEmpty()) {
            state.put(clockField(limit), now);
          }
        }
        remaining = Math.floorDiv(l, window);
        untilFull = ceilDiv(full - l, capacity) * tick;
      } else {
        long cur = current[i];
        long prev = previous[i];
        long idx = index[i];
        long elapsed = elapsedInWindow[i];
        if (change && delta > 0) {
          cur = Math.min(cur + delta, (FULL_DEBT_WINDOWS + 1) * capacity);
        } else if (change && delta < 0) {
          long charged = Math.floorDiv(Math.floorDiv(reservedAt, tick), window);
          if (charged == idx) {
            cur = Math.max(0, cur + delta);
          } else if (charged == idx - 1) {
            prev = Math.max(0, prev + delta);
          }
        }
        if (change) {
          state.put(field, cur);
          state.put(field + ":p", prev);
          state.put(field + ":w", idx);
        }
        remaining = Math.floorDiv((capacity - cur) * window - prev * (window - elapsed), window);
        untilFull = cur > 0 ? (2 * window - elapsed) * tick : prev > 0 ? (window - elapsed) * tick : 0;
      }
      perLimit[i * 2] = Math.max(0, remaining);
      perLimit[i * 2 + 1] = untilFull;
    }
    if (change) {
      state.put("t", now);
    }
    return new StepResult(reserve ? (allowed ? 1 : 0) : 1, wait, now, perLimit);
  }

  /** Time until every limit is full again, in µs: how long an idle state must be kept. */
  public static long untilFullMicros(StepResult result, int limits) {
    long longest = 0;
    for (int i = 0; i < limits; i++) {
      longest = Math.max(longest, result.untilFullMicros(i));
    }
    return longest;
  }

  /**
   * The longest any state of {@code limits} can take to be full again with no more traffic, in µs:
   * a token bucket in full debt ({@link #FULL_DEBT_WINDOWS} windows of refill below empty, then one
   * to fill), a sliding window charged just now (this window and the next). An upper bound for an
   * idle subject's lifetime, whatever it was charged.
   */
  public static long longestUntilFullMicros(Limits limits) {
    long longest = 0;
    for (Limit limit : limits.all()) {
      long windowMicros = limit.windowTicks() * limit.tickMicros();
      long windows = limit.algorithm() == Algorithm.TOKEN_BUCKET ? FULL_DEBT_WINDOWS + 1 : 2;
      longest = Math.max(longest, windows * windowMicros);
    }
    return longest;
  }

  /** The room to leave in {@code limit}'s dimension, -1 for none: spend is never lowered. */
  private static long lowest(Limit limit, long requestsRoom, long tokensRoom) {
    return switch (limit.dimension()) {
      case REQUESTS -> requestsRoom;
      case TOKENS -> tokensRoom;
      case SPEND -> -1;
    };
  }

  /** A grouped bucket's clock: {@code g|t}, so that steps of other groups do not skip its refill. */
  private static String clockField(Limit limit) {
    return limit.group() + "|t";
  }

  static long ceilDiv(long x, long y) {
    return -Math.floorDiv(-x, y);
  }
}
