package io.tollgate.samples.api;

import io.tollgate.config.TollgateConfig;
import io.tollgate.redis.RedisConnection;
import io.tollgate.router.FailureKind;
import io.tollgate.router.ProviderBreaker;
import io.tollgate.router.ProviderBreakers;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** A provider's circuit breaker, shared by the fleet when Redis is given. */
public final class BreakerExample {

  private BreakerExample() {}

  /** {@code call} on the primary when its breaker permits, else {@code fallback}. */
  public static String callGuarded(TollgateConfig config, Optional<RedisConnection> redis,
      Supplier<String> call, Supplier<String> fallback) throws InterruptedException {
    ProviderBreakers breakers = ProviderBreakers.create(config.breaker(), redis, Clock.systemUTC());
    breakers.onStateTransition(t -> System.out.println(t));   // BreakerTransition: provider, from, to, reason, at, openUntil

    ProviderBreaker openai = breakers.breaker("openai");
    if (!openai.tryAcquirePermission()) {
      Thread.sleep(breakers.switchOverDelay().toMillis());   // when the fleet opened it: see "Jitter"
      return fallback.get();
    }
    long started = System.nanoTime();
    try {
      String answer = call.get();
      Duration latency = Duration.ofNanos(System.nanoTime() - started);
      openai.onSuccess(latency);                       // or onFailure(FailureKind.RATE_LIMITED | SERVER_ERROR | TIMEOUT | CONNECTION)
      return answer;
    } catch (RuntimeException e) {
      openai.onFailure(FailureKind.CONNECTION);
      throw e;
    }
  }

  /** A permitted call that is not made after all gives its permission back. */
  public static void notCalled(ProviderBreakers breakers) {
    ProviderBreaker breaker = breakers.breaker("openai");
    if (!breaker.tryAcquirePermission()) {
      return;                                 // take a fallback
    }
    breaker.releasePermission();                      // instead, when a permitted call is not made after all
  }
}
