package io.tollgate.gate;

import io.tollgate.config.LimitsConfig;
import io.tollgate.config.ProviderConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.LimitProbe;
import io.tollgate.limiter.LimitState;
import io.tollgate.limiter.Outcome;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.telemetry.Budget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The spend budgets configured on a gate's providers ({@code usd-per-day}, {@code usd-per-month}
 * under {@code limits} and under each named model), as {@code tollgate.budget.used} reads them:
 * from the limiter, when the gauge is collected. Tenants' budgets are not among them: one series
 * per tenant would grow without bound.
 */
final class SpendBudgets {

  /**
   * How long one read of the limiter answers: the day and month budgets of one charge, and
   * several registries collecting at once, cost Redis one round trip.
   */
  static final Duration FRESH = Duration.ofSeconds(2);

  private SpendBudgets() {}

  /** Every provider's and named model's spend budget; {@code charges} is the gate's account charge. */
  static List<Budget> of(TollgateConfig config, RateLimiter limiter,
      BiFunction<String, Optional<String>, Optional<Charge>> charges) {
    List<Budget> budgets = new ArrayList<>();
    for (ProviderConfig provider : config.providers().values()) {
      String name = provider.name();
      if (provider.limits().limitsSpend()) {
        Reading account = new Reading(limiter, () -> charges.apply(name, Optional.empty()));
        add(budgets, provider.limits(), name, Optional.empty(), account);
      }
      for (Map.Entry<String, LimitsConfig> model : provider.models().entrySet()) {
        // "*" stands for every model not named: as many series as clients make up names
        if (!model.getKey().equals("*") && model.getValue().limitsSpend()) {
          Optional<String> key = Optional.of(model.getKey());
          add(budgets, model.getValue(), name, key, new Reading(limiter, () -> charges.apply(name, key)));
        }
      }
    }
    return budgets;
  }

  private static void add(List<Budget> budgets, LimitsConfig limits, String provider,
      Optional<String> model, Reading reading) {
    boolean ofModel = model.isPresent();
    if (limits.usdPerDayMicros().isPresent()) {
      budgets.add(new Budget(provider, model, Budget.DAY, () -> reading.used(ofModel, false)));
    }
    if (limits.usdPerMonthMicros().isPresent()) {
      budgets.add(new Budget(provider, model, Budget.MONTH, () -> reading.used(ofModel, true)));
    }
  }

  /** What one charge's limits have left, read from the limiter at most once per {@link #FRESH}. */
  private static final class Reading {
    private final RateLimiter limiter;
    private final Supplier<Optional<Charge>> charge;
    private Decision last;
    private long readAt;

    Reading(RateLimiter limiter, Supplier<Optional<Charge>> charge) {
      this.limiter = limiter;
      this.charge = charge;
    }

    /** The part of the model's ({@code ofModel}) or account's budget spent; NaN when unknown. */
    synchronized double used(boolean ofModel, boolean monthly) {
      long now = System.nanoTime();
      if (last == null || now - readAt >= FRESH.toNanos()) {
        last = peek();
        readAt = now;
      }
      for (LimitState state : last.limits()) {
        if (state.limit().dimension() == Dimension.SPEND && state.limit().monthly() == monthly
            && state.limit().group().isEmpty() != ofModel) {
          long capacity = state.limit().capacity();
          long left = Math.min(Math.max(0, state.remaining()), capacity);
          return (double) (capacity - left) / capacity;
        }
      }
      return Double.NaN;
    }

    /**
     * Reserves the smallest cost the limiter takes (one token, or one request where no token limit
     * applies) and gives it back at once: the limiter's own arithmetic, on its own clock, charges
     * no spend. A decision made without Redis, or none, tells nothing of the shared budget.
     */
    private Decision peek() {
      Optional<Charge> found = charge.get();
      if (found.isEmpty()) {
        return UNKNOWN;
      }
      try {
        Decision decision = LimitProbe.read(limiter, found.get().subject(), found.get().limits())
            .decision();
        return decision.degraded() || decision.outcome() == Outcome.NEVER_FITS ? UNKNOWN : decision;
      } catch (RuntimeException e) {
        return UNKNOWN;
      }
    }
  }

  private static final Decision UNKNOWN =
      new Decision(Outcome.DENIED, List.of(), Duration.ZERO, true, Optional.empty());
}
