package io.tollgate.llm;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One of a provider's limits, as its headers told it; any part may be missing.
 *
 * @param limit the most the window allows
 * @param remaining what is left now
 * @param resetAfter the time until the limit is full again (OpenAI gives a duration, Anthropic a
 *     timestamp, turned into a duration from the clock's now; never negative)
 */
public record Quota(OptionalLong limit, OptionalLong remaining, Optional<Duration> resetAfter) {

  public Quota {
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(remaining, "remaining");
    Objects.requireNonNull(resetAfter, "resetAfter");
  }

  /** remaining / limit when both are known and the limit is positive. */
  public OptionalDouble remainingRatio() {
    if (limit.isPresent() && remaining.isPresent() && limit.getAsLong() > 0) {
      return OptionalDouble.of(Math.min(1.0, (double) remaining.getAsLong() / limit.getAsLong()));
    }
    return OptionalDouble.empty();
  }

  /** True when the provider says nothing is left. */
  public boolean exhausted() {
    return remaining.isPresent() && remaining.getAsLong() <= 0;
  }
}
