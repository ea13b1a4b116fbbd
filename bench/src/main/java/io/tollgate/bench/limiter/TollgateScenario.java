package io.tollgate.bench.limiter;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;

/**
 * Tollgate's own limiter, {@link RateLimiter#redis(RedisConnection)} as an app uses it: one
 * EVALSHA of limiter.lua per reserve, and one more per settle.
 */
final class TollgateScenario implements Scenario {

  static final String RESERVE = "Tollgate reserve";
  static final String RESERVE_AND_SETTLE = "Tollgate reserve + settle";

  private final RateLimiter limiter;
  private final boolean settle;
  private final Limits limits = Workload.limits();
  private final Subject[] subjects = new Subject[Workload.SUBJECTS];

  private TollgateScenario(RedisConnection redis, boolean settle) {
    this.limiter = RateLimiter.redis(redis);
    this.settle = settle;
    for (int i = 0; i < subjects.length; i++) {
      subjects[i] = Workload.subject(i);
    }
  }

  /** Reserve alone: the decision before the LLM call. */
  static TollgateScenario reserve(RedisConnection redis) {
    return new TollgateScenario(redis, false);
  }

  /** Reserve, then settle with the real usage: the whole limiter work of one LLM call. */
  static TollgateScenario reserveAndSettle(RedisConnection redis) {
    return new TollgateScenario(redis, true);
  }

  @Override
  public String name() {
    return settle ? RESERVE_AND_SETTLE : RESERVE;
  }

  @Override
  public Call caller(int thread, int threads) {
    Workload.Cursor cursor = new Workload.Cursor(subjects.length, thread, threads);
    return () -> {
      Decision decision = limiter.reserve(subjects[cursor.next()], limits, 1, Workload.ESTIMATE);
      if (settle && decision.allowed()) {
        limiter.settle(decision.reservation().orElseThrow(), Workload.ACTUAL);
      }
      return decision.allowed();
    };
  }
}
