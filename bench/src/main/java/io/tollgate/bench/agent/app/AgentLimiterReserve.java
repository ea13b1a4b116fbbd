package io.tollgate.bench.agent.app;

import io.tollgate.config.Limiters;
import io.tollgate.config.RedisConfig;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Reservation;
import io.tollgate.limiter.Subject;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The Redis round trip as the agent makes it, for {@link LatencyApp}'s paired calls with the
 * agent attached: a limiter built the way the agent builds its own ({@link Limiters#create}: the
 * breaker over the Redis limiter, the settle thread), from the agent jar's own classes (the app's
 * class path has no Tollgate; the agent jar is on the system class path, and its core is not
 * relocated, so these names resolve to it; no signature here names a relocated type). Each
 * {@link #get} reserves the provider's subject under the benchmark's limits; the returned task
 * hands the settle to the settle thread, as the agent does when a body ends.
 *
 * <p>Loaded by name, and only in the Redis setup: without the agent nothing resolves these names.
 */
public final class AgentLimiterReserve implements Supplier<Runnable> {

  private static final Subject PROVIDER = Subject.of("provider", "openai");

  private final RateLimiter limiter;
  private final Limits limits;

  public AgentLimiterReserve(String redisUrl, String requestsPerMinute, String tokensPerMinute) {
    this.limiter = Limiters.create(Optional.of(RedisConfig.builder().url(redisUrl).build()));
    this.limits = Limits.of(
        Limit.requests(Long.parseLong(requestsPerMinute), Duration.ofMinutes(1)),
        Limit.tokens(Long.parseLong(tokensPerMinute), Duration.ofMinutes(1)));
  }

  @Override
  public Runnable get() {
    Decision decision = limiter.reserve(PROVIDER, limits, 1, 100);
    Reservation reservation = decision.reservation().orElseThrow(
        () -> new IllegalStateException("the reference reserve was not admitted: " + decision));
    if (decision.degraded()) {
      throw new IllegalStateException("the reference reserve did not reach Redis");
    }
    return () -> limiter.settleLater(reservation, 17);
  }
}
