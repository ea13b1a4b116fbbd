package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Bad limits, costs and ids fail clearly or become safe; none crash a limiter. */
class LimitValidationTest {

  @Test
  void rejectsZeroAndNegativeCapacities() {
    assertThatThrownBy(() -> Limit.tokens(0, Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tokens per PT1M must be > 0, was 0");
    assertThatThrownBy(() -> Limit.requests(-5, Duration.ofMinutes(1)))
        .hasMessage("requests per PT1M must be > 0, was -5");
  }

  @Test
  void rejectsWindowsThatAreEmptyOrBeyondAYear() {
    assertThatThrownBy(() -> Limit.tokens(10, Duration.ZERO))
        .hasMessage("window must be between 1 µs and 366 days, was PT0S");
    assertThatThrownBy(() -> Limit.tokens(10, Duration.ofDays(367)))
        .hasMessageStartingWith("window must be between 1 µs and 366 days");
    assertThatThrownBy(() -> Limit.tokens(10, Duration.ofNanos(1500)))
        .hasMessage("window must be a whole number of µs, was PT0.0000015S");
  }

  @Test
  void coarsensTheTickOnlyWhenExactArithmeticNeedsIt() {
    Limit perMinute = Limit.tokens(200_000, Duration.ofMinutes(1));
    Limit billionPerDay = Limit.tokens(1_000_000_000, Duration.ofDays(1));

    assertThat(perMinute.tickMicros()).isEqualTo(1);
    assertThat(perMinute.windowTicks()).isEqualTo(60_000_000);
    assertThat(billionPerDay.tickMicros()).isEqualTo(100_000);
    assertThat(billionPerDay.capacity() * billionPerDay.windowTicks()).isLessThan(1L << 50);
  }

  @Test
  void rejectsACapacityTooLargeToCountExactly() {
    assertThatThrownBy(() -> Limit.tokens(Long.MAX_VALUE, Duration.ofSeconds(1)))
        .hasMessage("tokens per PT1S is too large to count exactly, was " + Long.MAX_VALUE);
  }

  @Test
  void rejectsTwoLimitsOnTheSameDimensionAndWindow() {
    assertThatThrownBy(() -> Limits.of(Limit.tokens(10, Duration.ofMinutes(1)),
        Limit.tokens(20, Duration.ofMinutes(1))))
        .hasMessageStartingWith("two limits on tokens per PT1M");
    assertThatThrownBy(Limits::of).hasMessage("at least one limit is needed");
  }

  @Test
  void aHugeCostNeverFitsWithoutOverflow() {
    InMemoryRateLimiter limiter = InMemoryRateLimiter.create();
    Limits limits = Limits.of(Limit.requests(10, Duration.ofMinutes(1)),
        Limit.tokens(1_000, Duration.ofMinutes(1)));

    Decision decision = limiter.reserve(Subject.of("tenant", "huge"), limits, 1, Long.MAX_VALUE);

    assertThat(decision.outcome()).isEqualTo(Outcome.NEVER_FITS);
  }

  @Test
  void rejectsScopesThatCouldBreakAKey() {
    assertThatThrownBy(() -> Subject.of("ten{ant}", "x"))
        .hasMessageStartingWith("scope must match");
    assertThatThrownBy(() -> Subject.of(null, "x")).hasMessageStartingWith("scope must match");
  }

  @Test
  void distinctIdsGetDistinctDigestsAndEqualIdsTheSame() {
    assertThat(Subject.of("tenant", "a")).isEqualTo(Subject.of("tenant", "a"));
    assertThat(Subject.of("tenant", "a")).isNotEqualTo(Subject.of("provider", "a"));
    assertThat(Subject.of("tenant", "a").idHash()).isNotEqualTo(Subject.of("tenant", "a ").idHash());
    assertThat(Subject.of("tenant", "x".repeat(10_000)).toString()).hasSize("tenant:".length() + 20);
  }
}
