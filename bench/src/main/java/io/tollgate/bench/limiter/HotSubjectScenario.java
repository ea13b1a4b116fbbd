package io.tollgate.bench.limiter;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.LeasePolicy;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;
import java.time.Duration;

/**
 * One hot subject, every thread on it: Tollgate's reserve with and without local leases
 * ({@code leases: { size: auto, ttl: 200ms }}). The limits are far out of reach (600 million
 * requests and 600 billion tokens a minute), so every call is admitted and leases are sized by the
 * demand alone; each call takes 1 request and {@value Workload#ESTIMATE} tokens, as elsewhere.
 */
final class HotSubjectScenario implements Scenario {

  static final String OFF = "Hot subject, leases off";
  static final String ON = "Hot subject, leases on";
  static final Duration TTL = LeasePolicy.DEFAULT_TTL;

  private static final Limits LIMITS = Limits.of(
      Limit.requests(600_000_000L, Duration.ofMinutes(1)),
      Limit.tokens(600_000_000_000L, Duration.ofMinutes(1)));

  private final RateLimiter limiter;
  private final Limits limits;
  private final String name;
  private final boolean settle;
  private final Subject subject = Subject.of("tenant", "hot");

  private HotSubjectScenario(RedisConnection redis, boolean leases, boolean settle) {
    this.limiter = RateLimiter.redis(redis);
    this.limits = leases ? LIMITS.withLeases(LeasePolicy.auto(TTL)) : LIMITS;
    this.settle = settle;
    this.name = (leases ? ON : OFF) + (settle ? ", reserve + settle" : "");
  }

  static HotSubjectScenario reserve(RedisConnection redis, boolean leases) {
    return new HotSubjectScenario(redis, leases, false);
  }

  static HotSubjectScenario reserveAndSettle(RedisConnection redis, boolean leases) {
    return new HotSubjectScenario(redis, leases, true);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Call caller(int thread, int threads) {
    return () -> {
      Decision decision = limiter.reserve(subject, limits, 1, Workload.ESTIMATE);
      if (settle && decision.allowed()) {
        limiter.settle(decision.reservation().orElseThrow(), Workload.ACTUAL);
      }
      return decision.allowed();
    };
  }

  /** Gives back what is leased; the client is the benchmark's. */
  @Override
  public void close() {
    limiter.close();
  }
}
