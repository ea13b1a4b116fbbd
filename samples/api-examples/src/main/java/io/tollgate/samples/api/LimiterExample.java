package io.tollgate.samples.api;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Reservation;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.Usage;
import java.time.Duration;
import java.util.function.Supplier;

/** The limiter on its own: reserve before a call, settle with what it used. */
public final class LimiterExample {

  private LimiterExample() {}

  /** A tenant's call, if its limits allow it; the call's usage settles the reservation. */
  public static boolean callAsTenant(String tenantId, long estimate, Supplier<Usage> call) {
    RateLimiter limiter = RateLimiter.inMemory();     // or redis(connection), resilient(shared, config): below
    Limits limits = Limits.of(Limit.requests(500, Duration.ofMinutes(1)),
                              Limit.tokens(200_000, Duration.ofMinutes(1)),
                              Limit.tokens(20_000_000, Duration.ofDays(1)));
    Decision d = limiter.reserve(Subject.of("tenant", tenantId), limits, 1, estimate);
    if (d.allowed()) {
      Usage usage = call.get();                                              // make the call
      limiter.settle(d.reservation().orElseThrow(), usage.totalTokens());   // or release(...) on failure
    }
    return d.allowed();
  }

  /** The settle a gate makes when a body ends, and a wait for it before reading Redis. */
  public static boolean settleAfterTheBody(RateLimiter limiter, Reservation reservation,
      Usage usage) {
    limiter.settleLater(reservation, usage.totalTokens());   // what the gate does when a body ends
    limiter.awaitSettled(Duration.ofSeconds(5));              // before reading Redis right after a call
    return true;
  }
}
