package io.tollgate.telemetry;

import java.util.List;

/** Span, event and instrument names (docs/telemetry.md). */
public final class TelemetryNames {

  /** The instrumentation scope of every span and instrument. */
  public static final String SCOPE = "io.tollgate";

  /** One gated outbound call, from the gate's first decision to its settlement. */
  public static final String CALL_SPAN = "tollgate.call";
  /** One request actually sent to a provider; current while the transport sends it. */
  public static final String ATTEMPT_SPAN = "tollgate.attempt";
  /** One inbound request through the servlet filter. */
  public static final String INBOUND_SPAN = "tollgate.inbound";

  public static final String FALLBACK_EVENT = "tollgate.fallback";
  public static final String SKIPPED_EVENT = "tollgate.skipped";
  public static final String WAIT_EVENT = "tollgate.wait";
  public static final String BREAKER_TRANSITION_EVENT = "tollgate.breaker.transition";

  public static final String DECISIONS_METRIC = "tollgate.decisions";
  public static final String LIMITER_DURATION_METRIC = "tollgate.limiter.duration";
  public static final String TOKENS_RESERVED_METRIC = "tollgate.tokens.reserved";
  public static final String TOKENS_USED_METRIC = "tollgate.tokens.used";
  public static final String FALLBACKS_METRIC = "tollgate.fallbacks";
  public static final String COST_METRIC = "tollgate.cost";
  public static final String COST_UNPRICED_METRIC = "tollgate.cost.unpriced";
  public static final String BREAKER_STATE_METRIC = "tollgate.breaker.state";
  public static final String BREAKER_TRANSITIONS_METRIC = "tollgate.breaker.transitions";
  public static final String LIMITER_DEGRADED_METRIC = "tollgate.limiter.degraded";
  public static final String LIMITER_DEGRADED_TIME_METRIC = "tollgate.limiter.degraded.time";
  public static final String REDIS_POOL_EXHAUSTED_METRIC = "tollgate.redis.pool.exhausted";
  public static final String BUDGET_USED_METRIC = "tollgate.budget.used";

  /**
   * Bucket bounds of {@code tollgate.limiter.duration}, in seconds: 50 µs to 1 s. Both recorders
   * use them, so a dashboard's quantiles read the same buckets whichever exported them.
   */
  public static final List<Double> LIMITER_DURATION_BUCKETS = List.of(
      0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0);

  private TelemetryNames() {}
}
