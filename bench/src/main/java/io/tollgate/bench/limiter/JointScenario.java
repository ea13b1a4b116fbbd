package io.tollgate.bench.limiter;

import io.tollgate.limiter.Charge;
import io.tollgate.limiter.JointDecision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.limiter.internal.Outcomes;
import io.tollgate.redis.RedisConnection;
import java.time.Duration;
import java.util.List;

/**
 * A call charged to a tenant and to a provider account, as the gate charges one when tenants are
 * configured: {@link RateLimiter#reserveAll} of {@link RateLimiter#redis(RedisConnection)} on a
 * standalone Redis (both reserves in one pipeline), side by side with the two reserves made in
 * turn, as every backend made them before.
 * The tenants are the workload's 10,000; the providers four accounts with limits far out of
 * reach, so that every call is admitted and both ways do the same work in Redis.
 */
final class JointScenario implements Scenario {

  static final String PIPELINED = "Tollgate joint reserve (tenant + provider), one pipeline";
  static final String IN_TURN = "Tollgate joint reserve (tenant + provider), in turn";

  private static final Limits PROVIDER_LIMITS = Limits.of(
      Limit.requests(600_000_000L, Duration.ofMinutes(1)),
      Limit.tokens(600_000_000_000L, Duration.ofMinutes(1)));

  private final RateLimiter limiter;
  private final boolean pipelined;
  private final Limits tenantLimits = Workload.limits();
  private final Subject[] tenants = new Subject[Workload.SUBJECTS];
  private final Subject[] providers = new Subject[4];

  private JointScenario(RedisConnection redis, boolean pipelined) {
    this.limiter = RateLimiter.redis(redis);
    this.pipelined = pipelined;
    for (int i = 0; i < tenants.length; i++) {
      tenants[i] = Workload.subject(i);
    }
    for (int i = 0; i < providers.length; i++) {
      providers[i] = Subject.of("provider", "account-" + i);
    }
  }

  static JointScenario pipelined(RedisConnection redis) {
    return new JointScenario(redis, true);
  }

  static JointScenario inTurn(RedisConnection redis) {
    return new JointScenario(redis, false);
  }

  @Override
  public String name() {
    return pipelined ? PIPELINED : IN_TURN;
  }

  @Override
  public Call caller(int thread, int threads) {
    Workload.Cursor cursor = new Workload.Cursor(tenants.length, thread, threads);
    return () -> {
      int next = cursor.next();
      List<Charge> charges = List.of(new Charge(providers[next % providers.length], PROVIDER_LIMITS),
          new Charge(tenants[next], tenantLimits));
      JointDecision decision = pipelined
          ? limiter.reserveAll(charges, 1, Workload.ESTIMATE)
          : Outcomes.inTurn(charges, charge -> limiter.reserve(charge.subject(), charge.limits(), 1,
              Workload.ESTIMATE), limiter::release);
      return decision.allowed();
    };
  }
}
