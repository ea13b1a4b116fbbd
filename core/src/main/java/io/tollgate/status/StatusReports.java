package io.tollgate.status;

import io.tollgate.config.ProviderConfig;
import io.tollgate.gate.Activity;
import io.tollgate.gate.Fleet;
import io.tollgate.gate.Gate;
import io.tollgate.gate.TollgateVersion;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.LimitProbe;
import io.tollgate.limiter.LimitState;
import io.tollgate.limiter.LimiterHealth;
import io.tollgate.llm.Prices;
import io.tollgate.llm.QuotaKind;
import io.tollgate.router.HealthScore;
import io.tollgate.router.ProviderBreaker;
import io.tollgate.telemetry.DeniedLimit;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Makes a gate's {@link StatusReport}. What each limit has left is read from the limiter as a
 * reservation of nothing: the limiter's own arithmetic, on Redis's clock, charging nobody. A
 * report is kept for {@link #FRESH} so that several open pages cost the limiter one read.
 */
public final class StatusReports {

  /** How long one report answers. */
  public static final Duration FRESH = Duration.ofSeconds(1);
  /** Tenants shown: the busiest of the last five minutes. */
  public static final int TENANTS_SHOWN = 10;
  /** Decisions shown, newest first. */
  public static final int DECISIONS_SHOWN = 50;

  private final Gate gate;
  private final Clock clock;
  private StatusReport last;

  public StatusReports(Gate gate, Clock clock) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public static StatusReports of(Gate gate) {
    return new StatusReports(gate, Clock.systemUTC());
  }

  /** The current report: made now, or the one made less than {@link #FRESH} ago. */
  public synchronized StatusReport current() {
    Instant now = clock.instant();
    if (last == null || !now.isBefore(last.generatedAt().plus(FRESH))) {
      last = make(now);
    }
    return last;
  }

  private StatusReport make(Instant now) {
    Activity activity = gate.activity();
    Map<String, Activity.ProviderSnapshot> seen = activity.providers();
    Map<String, Double> scores = new LinkedHashMap<>();
    for (HealthScore score : gate.health().scores()) {
      scores.put(score.provider(), score.score());
    }
    List<StatusReport.Provider> providers = new ArrayList<>();
    List<StatusReport.LimitSet> limits = new ArrayList<>();
    for (ProviderConfig provider : gate.config().providers().values()) {
      Activity.ProviderSnapshot snapshot = seen.get(provider.name());
      providers.add(provider(provider, snapshot, scores.get(provider.name())));
      limits.addAll(limits(provider, snapshot.refused()));
    }
    List<StatusReport.LimitSet> tenants = new ArrayList<>();
    for (Activity.TenantSnapshot tenant : activity.busiestTenants(TENANTS_SHOWN)) {
      tenants.add(new StatusReport.LimitSet("tenant", tenant.name(), tenant.calls(), tenant.refused(),
          tenant.lastSeen(), buckets(tenant.outbound(), false), buckets(tenant.inbound(), false)));
    }
    List<StatusReport.Instance> fleet = new ArrayList<>();
    for (Fleet.Instance instance : gate.fleet().instances()) {
      fleet.add(new StatusReport.Instance(instance.name(), instance.frontEnd(), instance.version(),
          instance.degraded(), instance.started(), instance.lastSeen(), instance.self()));
    }
    List<StatusReport.Decision> decisions = new ArrayList<>();
    for (Activity.DecisionEvent event : activity.recentDecisions()) {
      if (decisions.size() == DECISIONS_SHOWN) {
        break;
      }
      decisions.add(new StatusReport.Decision(event.at(), event.decision(), event.direction(),
          event.provider(), event.fallbackFrom(), event.tenant(), event.limit(), event.degraded(),
          event.model()));
    }
    boolean degraded = gate.limiter() instanceof LimiterHealth health && health.isDegraded();
    return new StatusReport(now, TollgateVersion.current(), gate.mode().toString(),
        gate.config().redis().isPresent() ? "redis" : "in-memory", degraded, providers, limits,
        tenants, fleet, decisions);
  }

  private StatusReport.Provider provider(ProviderConfig provider, Activity.ProviderSnapshot seen,
      Double score) {
    ProviderBreaker breaker = gate.breakers().breaker(provider.name());
    List<StatusReport.Transition> transitions = new ArrayList<>();
    for (Activity.Transition transition : seen.transitions()) {
      transitions.add(new StatusReport.Transition(transition.at(), transition.from(), transition.to(),
          transition.reason()));
    }
    StatusReport.Reported reported = null;
    if (!seen.reported().isEmpty()) {
      Map<String, StatusReport.Quota> quotas = new LinkedHashMap<>();
      seen.reported().forEach((kind, quota) -> quotas.put(name(kind), new StatusReport.Quota(
          quota.limit().isPresent() ? quota.limit().getAsLong() : null,
          quota.remaining().isPresent() ? quota.remaining().getAsLong() : null,
          quota.resetAfter().map(Duration::toMillis).orElse(null))));
      reported = new StatusReport.Reported(seen.reportedAt(), quotas);
    }
    return new StatusReport.Provider(provider.name(), provider.api().configName(),
        name(breaker.state()), breaker.openUntil().orElse(null), score, seen.attempts(),
        seen.answered(), seen.rateLimited(), seen.failed(), seen.refused(), transitions, reported,
        provider.fallbacks());
  }

  /** The provider account's limits, then each configured model's. */
  private List<StatusReport.LimitSet> limits(ProviderConfig provider, long refused) {
    List<StatusReport.LimitSet> sets = new ArrayList<>();
    Optional<Charge> account = gate.accountCharge(provider.name(), Optional.empty());
    if (!provider.limits().isEmpty() && account.isPresent()) {
      sets.add(new StatusReport.LimitSet("provider", provider.name(), null, refused, null,
          buckets(account.get(), false), List.of()));
    }
    for (String model : provider.models().keySet()) {
      if (model.equals("*")) {
        continue;
      }
      gate.accountCharge(provider.name(), Optional.of(model)).ifPresent(charge ->
          sets.add(new StatusReport.LimitSet("model", provider.name() + "/" + model, null, null,
              null, buckets(charge, true), List.of())));
    }
    return sets;
  }

  /**
   * What each limit of {@code charge} has left; of a model's charge only the model's own.
   * Empty when there is nothing to read, or the limiter cannot answer.
   */
  private List<StatusReport.Bucket> buckets(Charge charge, boolean modelOnly) {
    if (charge == null) {
      return List.of();
    }
    LimitProbe probe;
    try {
      probe = LimitProbe.read(gate.limiter(), charge.subject(), charge.limits());
    } catch (RuntimeException e) {
      return List.of();
    }
    List<StatusReport.Bucket> buckets = new ArrayList<>();
    for (LimitState state : probe.decision().limits()) {
      if (modelOnly == state.limit().group().isEmpty()) {
        continue;
      }
      Dimension dimension = state.limit().dimension();
      long remaining = Math.max(0, state.remaining()) + probe.taken(dimension);
      boolean spend = dimension == Dimension.SPEND;
      buckets.add(new StatusReport.Bucket(DeniedLimit.key(state.limit()), dimension.label(),
          amount(state.limit().capacity(), spend), amount(Math.min(remaining,
              state.limit().capacity()), spend), state.untilFull().toMillis()));
    }
    return buckets;
  }

  private static BigDecimal amount(long value, boolean microUsd) {
    return microUsd ? Prices.toDollars(value) : BigDecimal.valueOf(value);
  }

  private static String name(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }

  static String name(QuotaKind kind) {
    return kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
