package io.tollgate.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.LimitState;
import io.tollgate.limiter.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code tollgate.limit}: which limit refused, by scope, group, dimension and window. */
class DeniedLimitTest {

  private static Decision denied(LimitState... states) {
    return new Decision(Outcome.DENIED, List.of(states), Duration.ofSeconds(1), false, Optional.empty());
  }

  @Test
  void aModelsLimitIsNamedAsTheModelsAndASpentBudgetByItsPeriod() {
    LimitState account = new LimitState(Limit.requests(500, Duration.ofMinutes(1)), 10, Duration.ZERO);
    LimitState model = new LimitState(Limit.requests(5, Duration.ofMinutes(1)).inGroup("mabc"), 0,
        Duration.ofSeconds(12));
    LimitState monthly = new LimitState(Limit.spendPerMonth(1_000_000), 400, Duration.ofDays(3));

    assertThat(DeniedLimit.name("provider", denied(account, model), 100))
        .isEqualTo("provider:model:requests-per-minute");
    assertThat(DeniedLimit.name("tenant", denied(account, monthly), 100, 500))
        .isEqualTo("tenant:usd-per-month");
    // 400 µUSD left is room for a call asking 300
    assertThat(DeniedLimit.name("tenant", denied(monthly), 100, 300)).isEqualTo("tenant:unknown");
  }
}
