package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One provider's decayed figures: success rate, p99 latency, remaining quota. */
class ProviderHealthTest {

  private static final Duration HALF_LIFE = Duration.ofSeconds(60);

  private final SteppedClock clock = new SteppedClock();
  private final ProviderHealth health = ProviderHealth.of("openai", HealthConfig.ofDefaults(), clock);

  @Test
  void aProviderNeverObservedHasTheNeutralPrior() {
    HealthSnapshot snapshot = health.snapshot();

    assertThat(snapshot).isEqualTo(new HealthSnapshot("openai", 0.0, 0.0, 1.0, Optional.empty(), 1.0));
  }

  @Test
  void oneFailureDoesNotWriteOffAProvider() {
    health.recordFailure();

    assertThat(health.snapshot().successRate()).isEqualTo(0.5); // (0 + prior 1) / (0 + 1 + 1)
  }

  @Test
  void anOldFailureWeighsHalfAfterOneHalfLife() {
    health.recordFailure();
    clock.advance(HALF_LIFE);
    health.recordSuccess(Duration.ofMillis(128));

    HealthSnapshot snapshot = health.snapshot();
    assertThat(snapshot.failures()).isEqualTo(0.5);
    assertThat(snapshot.successes()).isEqualTo(1.0);
    assertThat(snapshot.successRate()).isEqualTo(0.8); // (1 + 1) / (1 + 0.5 + 1)

    clock.advance(HALF_LIFE);
    assertThat(health.snapshot().failures()).isEqualTo(0.25);
    assertThat(health.snapshot().successes()).isEqualTo(0.5);
  }

  @Test
  void decayStaysExactAcrossALongQuietSpell() {
    health.recordFailure();
    clock.advance(HALF_LIFE.multipliedBy(40)); // past the point where the weights are rescaled
    health.recordSuccess(Duration.ofMillis(128));

    assertThat(health.snapshot().failures()).isEqualTo(Math.pow(2, -40));
    assertThat(health.snapshot().successes()).isEqualTo(1.0);

    clock.advance(HALF_LIFE);
    assertThat(health.snapshot().failures()).isEqualTo(Math.pow(2, -41));
    assertThat(health.snapshot().successes()).isEqualTo(0.5);
  }

  @Test
  void aClockSteppedBackDoesNotMakeNewObservationsLighter() {
    clock.advance(HALF_LIFE);
    health.recordFailure();
    clock.stepBack(HALF_LIFE);
    health.recordSuccess(Duration.ofMillis(128));

    assertThat(health.snapshot().successes()).isEqualTo(1.0);
    assertThat(health.snapshot().failures()).isEqualTo(1.0);
  }

  @Test
  void p99IsTheSlowestOnePercent() {
    record(99, Duration.ofMillis(128));
    record(1, Duration.ofMillis(1024));
    assertThat(health.snapshot().p99()).contains(Duration.ofMillis(128));

    record(1, Duration.ofMillis(1024)); // now 2 of 101 are slow
    assertThat(health.snapshot().p99()).contains(Duration.ofMillis(1024));
  }

  @Test
  void oldSlowCallsFadeOutOfTheP99() {
    record(10, Duration.ofMillis(1024));
    clock.advance(HALF_LIFE.multipliedBy(10)); // they now weigh 10/1024 together
    record(100, Duration.ofMillis(128));

    assertThat(health.snapshot().p99()).contains(Duration.ofMillis(128));
  }

  @Test
  void latencyIsReportedAsTheUpperBoundOfItsBucket() {
    health.recordSuccess(Duration.ofMillis(100));

    assertThat(health.snapshot().p99().orElseThrow())
        .isGreaterThanOrEqualTo(Duration.ofMillis(100))
        .isLessThan(Duration.ofMillis(119));
  }

  @Test
  void failuresAddNoLatency() {
    health.recordFailure();

    assertThat(health.snapshot().p99()).isEmpty();
  }

  @Test
  void theLowerQuotaOfTheLatestReportOfEachSourceCounts() {
    health.recordQuota(QuotaSource.PROVIDER, 0.25);
    health.recordQuota(QuotaSource.LIMITER, 0.5);
    assertThat(health.snapshot().quotaRatio()).isEqualTo(0.25);

    health.recordQuota(QuotaSource.PROVIDER, 0.75); // the provider's window refilled
    assertThat(health.snapshot().quotaRatio()).isEqualTo(0.5);
  }

  @Test
  void aQuotaShortfallHalvesEveryHalfLifeAsWindowsRefill() {
    health.recordQuota(QuotaSource.LIMITER, 0.0);
    clock.advance(HALF_LIFE);
    assertThat(health.snapshot().quotaRatio()).isEqualTo(0.5);

    clock.advance(HALF_LIFE);
    assertThat(health.snapshot().quotaRatio()).isEqualTo(0.75);
  }

  @Test
  void quotaRatiosOutsideZeroToOneAreClamped() {
    health.recordQuota(QuotaSource.PROVIDER, 1.7);
    assertThat(health.snapshot().quotaRatio()).isEqualTo(1.0);

    health.recordQuota(QuotaSource.LIMITER, -0.3); // a bucket in debt
    assertThat(health.snapshot().quotaRatio()).isEqualTo(0.0);
  }

  @Test
  void rejectsNonsenseObservations() {
    assertThatThrownBy(() -> health.recordQuota(QuotaSource.LIMITER, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("remaining ratio must be a number, was NaN");
    assertThatThrownBy(() -> health.recordSuccess(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("latency must not be negative, was PT-0.001S");
  }

  private void record(int times, Duration latency) {
    for (int i = 0; i < times; i++) {
      health.recordSuccess(latency);
    }
  }
}
