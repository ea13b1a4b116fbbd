package io.tollgate.telemetry;

import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * One spend budget configured on a provider, as {@code tollgate.budget.used} reports it.
 *
 * @param provider the provider's configured name
 * @param model the model's key under the provider's {@code models}; empty for the account's budget
 * @param period {@code day} or {@code month}
 * @param used the part of the budget spent, 0 to 1, read when the gauge is collected; NaN while it
 *     cannot be known (the limiter decides without Redis, or failed to answer)
 */
public record Budget(String provider, Optional<String> model, String period, DoubleSupplier used) {

  public static final String DAY = "day";
  public static final String MONTH = "month";

  public Budget {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(period, "period");
    Objects.requireNonNull(used, "used");
  }

  /** The same budget in another gate's report: provider, model and period name the series. */
  boolean sameSeries(Budget other) {
    return provider.equals(other.provider) && model.equals(other.model) && period.equals(other.period);
  }
}
