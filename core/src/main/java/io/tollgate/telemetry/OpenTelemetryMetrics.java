package io.tollgate.telemetry;

import static io.tollgate.telemetry.TollgateAttributes.BREAKER_STATE;
import static io.tollgate.telemetry.TollgateAttributes.BUDGET_PERIOD;
import static io.tollgate.telemetry.TollgateAttributes.DECISION;
import static io.tollgate.telemetry.TollgateAttributes.DEGRADED;
import static io.tollgate.telemetry.TollgateAttributes.DIRECTION;
import static io.tollgate.telemetry.TollgateAttributes.FALLBACK_FROM;
import static io.tollgate.telemetry.TollgateAttributes.FALLBACK_TO;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_TOKEN_TYPE;
import static io.tollgate.telemetry.TollgateAttributes.MODEL;
import static io.tollgate.telemetry.TollgateAttributes.PROVIDER;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleCounter;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;

/**
 * The measurements as instruments of an OpenTelemetry {@link Meter}: the default recorder. The
 * gauges read the breakers, limiters and budgets {@code telemetry} watches, in the meter's callbacks.
 */
final class OpenTelemetryMetrics implements MetricsRecorder {

  private final LongCounter decisions;
  private final DoubleHistogram limiterDuration;
  private final LongCounter tokensReserved;
  private final LongCounter tokensUsed;
  private final LongCounter fallbacks;
  private final DoubleCounter cost;
  private final LongCounter unpriced;
  private final LongCounter breakerTransitions;

  OpenTelemetryMetrics(Meter meter, Telemetry telemetry) {
    this.decisions = meter.counterBuilder(TelemetryNames.DECISIONS_METRIC)
        .setDescription("Decisions taken, by decision and provider").setUnit("{decision}").build();
    this.limiterDuration = meter.histogramBuilder(TelemetryNames.LIMITER_DURATION_METRIC)
        .setDescription("Time one limiter decision took (every subject of a call, Redis included)")
        .setUnit("s").setExplicitBucketBoundariesAdvice(TelemetryNames.LIMITER_DURATION_BUCKETS).build();
    this.tokensReserved = meter.counterBuilder(TelemetryNames.TOKENS_RESERVED_METRIC)
        .setDescription("Tokens reserved (estimated) before calls were sent").setUnit("{token}").build();
    this.tokensUsed = meter.counterBuilder(TelemetryNames.TOKENS_USED_METRIC)
        .setDescription("Tokens calls used, as reported by the provider or estimated").setUnit("{token}").build();
    this.fallbacks = meter.counterBuilder(TelemetryNames.FALLBACKS_METRIC)
        .setDescription("Calls sent to a fallback provider instead of the one addressed").setUnit("{call}").build();
    this.cost = meter.counterBuilder(TelemetryNames.COST_METRIC).ofDoubles()
        .setDescription("What calls cost, priced from their usage, by provider and model").setUnit("USD").build();
    this.unpriced = meter.counterBuilder(TelemetryNames.COST_UNPRICED_METRIC)
        .setDescription("Calls whose model has no price, charged 0").setUnit("{call}").build();
    this.breakerTransitions = meter.counterBuilder(TelemetryNames.BREAKER_TRANSITIONS_METRIC)
        .setDescription("Breaker state changes").setUnit("{transition}").build();
    meter.gaugeBuilder(TelemetryNames.BREAKER_STATE_METRIC).ofLongs()
        .setDescription("Breaker state per provider: 0 closed, 1 half-open, 2 open")
        .buildWithCallback(measurement -> telemetry.observeBreakers((provider, state) ->
            measurement.record(Telemetry.gaugeValue(state), Attributes.of(PROVIDER, provider))));
    meter.gaugeBuilder(TelemetryNames.LIMITER_DEGRADED_METRIC).ofLongs()
        .setDescription("1 while the limiter decides without Redis, else 0")
        .buildWithCallback(measurement -> telemetry.limiters().forEach(limiter ->
            measurement.record(limiter.isDegraded() ? 1 : 0)));
    meter.counterBuilder(TelemetryNames.LIMITER_DEGRADED_TIME_METRIC).ofDoubles()
        .setDescription("Time the limiter has decided without Redis").setUnit("s")
        .buildWithCallback(measurement -> telemetry.limiters().forEach(limiter ->
            measurement.record(limiter.degradedTime().toNanos() / 1e9)));
    meter.counterBuilder(TelemetryNames.REDIS_POOL_EXHAUSTED_METRIC)
        .setDescription("Calls that found every pooled Redis connection busy, decided by the failure policy")
        .setUnit("{call}")
        .buildWithCallback(measurement -> telemetry.limiters().forEach(limiter ->
            measurement.record(limiter.poolExhaustions())));
    meter.gaugeBuilder(TelemetryNames.BUDGET_USED_METRIC).setUnit("1")
        .setDescription("Part of each provider's and model's spend budget used, 0 to 1")
        .buildWithCallback(measurement -> telemetry.budgets().forEach(budget -> {
          double used = budget.used().getAsDouble();
          if (!Double.isNaN(used)) { // unknown: no point rather than a made-up one
            measurement.record(used, budgetAttributes(budget));
          }
        }));
  }

  private static Attributes budgetAttributes(Budget budget) {
    AttributesBuilder attributes = Attributes.builder().put(PROVIDER, budget.provider())
        .put(BUDGET_PERIOD, budget.period());
    budget.model().ifPresent(model -> attributes.put(MODEL, model));
    return attributes.build();
  }

  @Override
  public void decision(String decision, String direction, String provider) {
    decisions.add(1, withProvider(provider).put(DECISION, decision).put(DIRECTION, direction).build());
  }

  @Override
  public void limiterDuration(long nanos, String provider, boolean degraded) {
    limiterDuration.record(nanos / 1e9, withProvider(provider).put(DEGRADED, degraded).build());
  }

  @Override
  public void tokensReserved(String provider, long tokens) {
    tokensReserved.add(tokens, provider == null ? Attributes.empty() : Attributes.of(PROVIDER, provider));
  }

  @Override
  public void tokensUsed(String provider, long input, long output) {
    tokensUsed.add(input, withProvider(provider).put(GEN_AI_TOKEN_TYPE, "input").build());
    tokensUsed.add(output, withProvider(provider).put(GEN_AI_TOKEN_TYPE, "output").build());
  }

  @Override
  public void cost(String provider, String model, double usd) {
    cost.add(usd, withProvider(provider).put(MODEL, model).build());
  }

  @Override
  public void unpriced(String provider) {
    unpriced.add(1, withProvider(provider).build());
  }

  @Override
  public void fallback(String from, String to) {
    fallbacks.add(1, Attributes.of(FALLBACK_FROM, from, FALLBACK_TO, to));
  }

  @Override
  public void breakerTransition(String provider, String state) {
    breakerTransitions.add(1, Attributes.of(PROVIDER, provider, BREAKER_STATE, state));
  }

  private static AttributesBuilder withProvider(String provider) {
    AttributesBuilder attributes = Attributes.builder();
    if (provider != null) {
      attributes.put(PROVIDER, provider);
    }
    return attributes;
  }
}
