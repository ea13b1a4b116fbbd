package io.tollgate.telemetry;

import io.tollgate.limiter.LimiterHealth;
import java.util.function.LongSupplier;

/**
 * Where Tollgate's measurements go (docs/telemetry.md, "Metrics"). By default they are the
 * instruments of the OpenTelemetry meter; a front end that has a metrics library of its own gives
 * a recorder with {@link Telemetry#withMetrics(MetricsRecorder)}, and it then takes every
 * measurement <em>instead</em> of OpenTelemetry's meter, so that each is recorded once (the Spring
 * Boot starter's Micrometer meters). Spans stay OpenTelemetry's either way.
 *
 * <p>Called on the threads that decide: implementations are thread-safe and never block. A
 * {@code provider} is null for the servlet filter's (inbound) measurements.
 */
public interface MetricsRecorder {

  /** One decision ({@link Decisions}) of the gate ({@code outbound}) or the filter ({@code inbound}). */
  void decision(String decision, String direction, String provider);

  /** One reservation: every subject of a call, Redis round trips included. */
  void limiterDuration(long nanos, String provider, boolean degraded);

  /** The estimate reserved for an admitted call. */
  void tokensReserved(String provider, long tokens);

  /** The usage a call reported (or was estimated from its stream). */
  void tokensUsed(String provider, long input, long output);

  /**
   * What a call cost ({@code tollgate.cost}, USD), priced from its usage; {@code model} is the
   * price table's name for the model.
   */
  default void cost(String provider, String model, double usd) {}

  /** A call whose model has no price ({@code tollgate.cost.unpriced}): it was charged 0. */
  default void unpriced(String provider) {}

  /** A call answered by {@code to} instead of {@code from}, the provider it addressed. */
  void fallback(String from, String to);

  /** A breaker changed state; {@code state} is the new one: {@code closed}, {@code open}, {@code half_open}. */
  void breakerTransition(String provider, String state);

  /**
   * Reports {@code provider}'s breaker state ({@code tollgate.breaker.state}) from now until the
   * handle is closed; {@code state} reads it as the gauge's value: 0 closed, 1 half-open, 2 open.
   * The OpenTelemetry instruments read the watched breakers in their callback instead.
   */
  default AutoCloseable breakerState(String provider, LongSupplier state) {
    return () -> { };
  }

  /**
   * Reports whether {@code limiter} decides without Redis ({@code tollgate.limiter.degraded}) and
   * for how long it has ({@code tollgate.limiter.degraded.time}), and how many calls found its
   * connection pool exhausted ({@code tollgate.redis.pool.exhausted}), until the handle is closed.
   */
  default AutoCloseable limiterDegraded(LimiterHealth limiter) {
    return () -> { };
  }

  /**
   * Reports the part of {@code budget} spent ({@code tollgate.budget.used}), read from {@link
   * Budget#used()} when collected, until the handle is closed.
   */
  default AutoCloseable budgetUsed(Budget budget) {
    return () -> { };
  }
}
