package io.tollgate.spring.boot.metrics;

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

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tollgate.limiter.LimiterHealth;
import io.tollgate.telemetry.Budget;
import io.tollgate.telemetry.MetricsRecorder;
import io.tollgate.telemetry.TelemetryNames;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Tollgate's measurements as Micrometer meters (docs/spring-boot.md, "Micrometer"): the names of
 * docs/telemetry.md, the OpenTelemetry attributes as tags. Micrometer wants the same tag keys on
 * every meter of a name, so a measurement without a provider (the servlet filter's) is tagged
 * {@code tollgate.provider=none}.
 */
public final class MicrometerMetrics implements MetricsRecorder {

  /** The provider tag of inbound measurements. */
  public static final String NO_PROVIDER = "none";

  private final MeterRegistry registry;
  private final Meter.MeterProvider<Counter> decisions;
  private final Meter.MeterProvider<Timer> limiterDuration;
  private final Meter.MeterProvider<Counter> tokensReserved;
  private final Meter.MeterProvider<Counter> tokensUsed;
  private final Meter.MeterProvider<Counter> fallbacks;
  private final Meter.MeterProvider<Counter> cost;
  private final Meter.MeterProvider<Counter> unpriced;
  private final Meter.MeterProvider<Counter> breakerTransitions;
  private final List<LimiterHealth> limiters = new CopyOnWriteArrayList<>();

  public MicrometerMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.decisions = Counter.builder(TelemetryNames.DECISIONS_METRIC)
        .description("Decisions taken, by decision and provider").withRegistry(registry);
    this.limiterDuration = Timer.builder(TelemetryNames.LIMITER_DURATION_METRIC)
        .description("Time one limiter decision took (every subject of a call, Redis included)")
        // OpenTelemetry's buckets, so that docs/grafana's quantiles work without a setting; Boot's
        // management.metrics.distribution.* properties still replace them
        .serviceLevelObjectives(TelemetryNames.LIMITER_DURATION_BUCKETS.stream()
            .map(seconds -> Duration.ofNanos(Math.round(seconds * 1e9))).toArray(Duration[]::new))
        .withRegistry(registry);
    this.tokensReserved = Counter.builder(TelemetryNames.TOKENS_RESERVED_METRIC)
        .description("Tokens reserved (estimated) before calls were sent").withRegistry(registry);
    this.tokensUsed = Counter.builder(TelemetryNames.TOKENS_USED_METRIC)
        .description("Tokens calls used, as reported by the provider or estimated").withRegistry(registry);
    this.fallbacks = Counter.builder(TelemetryNames.FALLBACKS_METRIC)
        .description("Calls sent to a fallback provider instead of the one addressed").withRegistry(registry);
    this.cost = Counter.builder(TelemetryNames.COST_METRIC)
        .description("What calls cost, priced from their usage, by provider and model").withRegistry(registry);
    this.unpriced = Counter.builder(TelemetryNames.COST_UNPRICED_METRIC)
        .description("Calls whose model has no price, charged 0").withRegistry(registry);
    this.breakerTransitions = Counter.builder(TelemetryNames.BREAKER_TRANSITIONS_METRIC)
        .description("Breaker state changes").withRegistry(registry);
  }

  @Override
  public void decision(String decision, String direction, String provider) {
    decisions.withTags(DECISION.getKey(), decision, DIRECTION.getKey(), direction,
        PROVIDER.getKey(), provider(provider)).increment();
  }

  @Override
  public void limiterDuration(long nanos, String provider, boolean degraded) {
    limiterDuration.withTags(PROVIDER.getKey(), provider(provider), DEGRADED.getKey(), Boolean.toString(degraded))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void tokensReserved(String provider, long tokens) {
    tokensReserved.withTags(PROVIDER.getKey(), provider(provider)).increment(tokens);
  }

  @Override
  public void tokensUsed(String provider, long input, long output) {
    tokensUsed.withTags(PROVIDER.getKey(), provider(provider), GEN_AI_TOKEN_TYPE.getKey(), "input").increment(input);
    tokensUsed.withTags(PROVIDER.getKey(), provider(provider), GEN_AI_TOKEN_TYPE.getKey(), "output").increment(output);
  }

  @Override
  public void cost(String provider, String model, double usd) {
    cost.withTags(PROVIDER.getKey(), provider(provider), MODEL.getKey(), model).increment(usd);
  }

  @Override
  public void unpriced(String provider) {
    unpriced.withTags(PROVIDER.getKey(), provider(provider)).increment();
  }

  @Override
  public void fallback(String from, String to) {
    fallbacks.withTags(FALLBACK_FROM.getKey(), from, FALLBACK_TO.getKey(), to).increment();
  }

  @Override
  public void breakerTransition(String provider, String state) {
    breakerTransitions.withTags(PROVIDER.getKey(), provider, BREAKER_STATE.getKey(), state).increment();
  }

  @Override
  public AutoCloseable breakerState(String provider, LongSupplier state) {
    Gauge gauge = Gauge.builder(TelemetryNames.BREAKER_STATE_METRIC, state, LongSupplier::getAsLong)
        .description("Breaker state per provider: 0 closed, 1 half-open, 2 open")
        .tag(PROVIDER.getKey(), provider)
        .strongReference(true) // the supplier is held by nothing else
        .register(registry);
    return () -> registry.remove(gauge);
  }

  /**
   * One gauge and one counter for all the limiters watched (registering them again returns the
   * same): degraded if any is, the time summed. Both read {@code limiters}, held as long as this is.
   */
  @Override
  public AutoCloseable limiterDegraded(LimiterHealth limiter) {
    limiters.add(limiter);
    Gauge.builder(TelemetryNames.LIMITER_DEGRADED_METRIC, limiters,
            all -> all.stream().anyMatch(LimiterHealth::isDegraded) ? 1 : 0)
        .description("1 while the limiter decides without Redis, else 0")
        .register(registry);
    FunctionCounter.builder(TelemetryNames.LIMITER_DEGRADED_TIME_METRIC, limiters,
            all -> all.stream().mapToDouble(each -> each.degradedTime().toNanos() / 1e9).sum())
        .description("Time the limiter has decided without Redis")
        .baseUnit("seconds")
        .register(registry);
    FunctionCounter.builder(TelemetryNames.REDIS_POOL_EXHAUSTED_METRIC, limiters,
            all -> all.stream().mapToDouble(LimiterHealth::poolExhaustions).sum())
        .description("Calls that found every pooled Redis connection busy, decided by the failure policy")
        .register(registry);
    return () -> limiters.remove(limiter);
  }

  /**
   * A gauge per budget. Micrometer wants the same tag keys on every meter of a name, so an account's
   * budget has {@code tollgate.model} empty: Prometheus drops an empty label, and the series is then
   * the one OpenTelemetry's export gives (no model attribute). NaN while the budget is unknown.
   */
  @Override
  public AutoCloseable budgetUsed(Budget budget) {
    Gauge gauge = Gauge.builder(TelemetryNames.BUDGET_USED_METRIC, budget.used(), DoubleSupplier::getAsDouble)
        .description("Part of each provider's and model's spend budget used, 0 to 1")
        .tag(PROVIDER.getKey(), budget.provider())
        .tag(MODEL.getKey(), budget.model().orElse(""))
        .tag(BUDGET_PERIOD.getKey(), budget.period())
        .strongReference(true) // the supplier is held by nothing else
        .register(registry);
    return () -> registry.remove(gauge);
  }

  private static String provider(String provider) {
    return provider == null ? NO_PROVIDER : provider;
  }
}
