package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.config.BreakerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The jitter the pipeline waits before a fleet-wide switch-over to a fallback. */
class SwitchOverDelayTest {

  private static List<Duration> delays(ProviderBreakers breakers, int n) {
    List<Duration> delays = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      delays.add(breakers.switchOverDelay());
    }
    return delays;
  }

  @Test
  void isUniformInZeroTo250MillisecondsFromTheInjectedRandom() {
    try (ProviderBreakers breakers = ProviderBreakers.builder(BreakerConfig.ofDefaults())
        .random(new Random(7)).build()) {
      List<Duration> delays = delays(breakers, 2_000);

      Random same = new Random(7);
      assertThat(delays.subList(0, 5)).containsExactly(
          Duration.ofMillis(same.nextLong(251)), Duration.ofMillis(same.nextLong(251)),
          Duration.ofMillis(same.nextLong(251)), Duration.ofMillis(same.nextLong(251)),
          Duration.ofMillis(same.nextLong(251)));
      assertThat(delays).allSatisfy(delay ->
          assertThat(delay).isBetween(Duration.ZERO, Duration.ofMillis(250)));
      assertThat(delays).contains(Duration.ZERO, Duration.ofMillis(250));
      assertThat(delays.stream().mapToLong(Duration::toMillis).average().orElseThrow())
          .isBetween(115.0, 135.0);
    }
  }

  private static ProviderBreakers seeded(long seed) {
    return ProviderBreakers.builder(BreakerConfig.ofDefaults()).random(new Random(seed)).build();
  }

  @Test
  void theSameSeedGivesTheSameDelays() {
    try (ProviderBreakers a = seeded(42); ProviderBreakers b = seeded(42)) {
      assertThat(delays(a, 20)).isEqualTo(delays(b, 20));
    }
  }

  @Test
  void followsTheConfiguredBound() {
    try (ProviderBreakers breakers = ProviderBreakers.builder(BreakerConfig.ofDefaults())
        .switchOverJitter(Duration.ofMillis(40)).random(new Random(1)).build()) {
      assertThat(delays(breakers, 500)).allSatisfy(delay ->
          assertThat(delay).isBetween(Duration.ZERO, Duration.ofMillis(40)));
    }
  }

  @Test
  void zeroJitterIsNoDelay() {
    try (ProviderBreakers breakers = ProviderBreakers.builder(BreakerConfig.ofDefaults())
        .switchOverJitter(Duration.ZERO).build()) {
      assertThat(breakers.switchOverDelay()).isZero();
    }
  }

  @Test
  void rejectsANegativeBound() {
    assertThatThrownBy(() -> ProviderBreakers.builder(BreakerConfig.ofDefaults())
        .switchOverJitter(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("switch-over-jitter must be >= 0, was PT-0.001S");
  }
}
