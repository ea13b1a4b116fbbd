package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** What the fleet tests check of an instance that should have learned another's open breaker. */
final class FleetEpisodes {

  private FleetEpisodes() {}

  /** Waits until {@code learner} refuses calls, then checks it holds {@code opener}'s episode. */
  static void awaitLearned(ProviderBreaker learner, ProviderBreaker opener) {
    Poll.until(Duration.ofSeconds(5), "the other instance learning of the open breaker",
        () -> !learner.tryAcquirePermission());

    assertThat(learner.state()).isEqualTo(BreakerState.OPEN);
    assertThat(learner.openedBy()).contains(OpenedBy.FLEET);
    // the same episode: its end as Redis's clock and this JVM's see it, within a second
    assertThat(learner.openUntil().orElseThrow())
        .isCloseTo(opener.openUntil().orElseThrow(), within(1, ChronoUnit.SECONDS));
  }
}
