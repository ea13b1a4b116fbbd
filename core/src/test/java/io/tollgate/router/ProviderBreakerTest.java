package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.BreakerConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One JVM's breakers with the default settings, on a fake clock: the rules, with exact times. */
class ProviderBreakerTest {

  private static final Duration LATENCY = Duration.ofMillis(800);

  private final MutableClock clock = new MutableClock();
  private final List<BreakerTransition> transitions = new ArrayList<>();
  private final ProviderBreakers breakers = ProviderBreakers
      .create(BreakerConfig.ofDefaults(), Optional.empty(), clock)
      .onStateTransition(transitions::add);
  private final ProviderBreaker openai = breakers.breaker("openai");

  private final List<ProviderBreakers> closeables = new ArrayList<>(List.of(breakers));

  @AfterEach
  void close() {
    closeables.forEach(ProviderBreakers::close);
  }

  private void failAt(Duration since) {
    clock.setTo(since);
    openai.onFailure(FailureKind.SERVER_ERROR);
  }

  private static Instant at(Duration since) {
    return MutableClock.START.plus(since);
  }

  private static Duration seconds(long seconds) {
    return Duration.ofSeconds(seconds);
  }

  private void openAtZero() {
    failAt(Duration.ZERO);
    failAt(Duration.ofSeconds(1));
    failAt(Duration.ofSeconds(2));
    assertThat(openai.state()).isEqualTo(BreakerState.OPEN);
  }

  private void probeAndFail() {
    clock.setTo(Duration.between(MutableClock.START, openai.openUntil().orElseThrow()));
    assertThat(openai.tryAcquirePermission()).isTrue();
    openai.onFailure(FailureKind.TIMEOUT);
  }

  @Test
  void threeConsecutiveFailuresWithinTenSecondsOpenIt() {
    failAt(Duration.ZERO);
    failAt(Duration.ofSeconds(4));
    assertThat(openai.state()).isEqualTo(BreakerState.CLOSED);
    assertThat(openai.tryAcquirePermission()).isTrue();

    failAt(Duration.ofSeconds(9));

    assertThat(openai.state()).isEqualTo(BreakerState.OPEN);
    assertThat(openai.openedBy()).contains(OpenedBy.LOCAL);
    assertThat(openai.openUntil()).contains(at(Duration.ofSeconds(39)));
    assertThat(openai.tryAcquirePermission()).isFalse();
  }

  @Test
  void everyKindOfFailureCounts() {
    failAt(Duration.ZERO);
    openai.onFailure(FailureKind.RATE_LIMITED);
    openai.onFailure(FailureKind.CONNECTION);

    assertThat(openai.state()).isEqualTo(BreakerState.OPEN);
  }

  @Test
  void threeFailuresExactlyTenSecondsApartEndToEndOpenIt() {
    failAt(Duration.ZERO);
    failAt(Duration.ofSeconds(5));
    failAt(Duration.ofSeconds(10));

    assertThat(openai.state()).isEqualTo(BreakerState.OPEN);
  }

  @Test
  void threeFailuresSpreadOverMoreThanTenSecondsDoNot() {
    failAt(Duration.ZERO);
    failAt(Duration.ofSeconds(5));
    failAt(Duration.ofMillis(10_001));

    assertThat(openai.state()).isEqualTo(BreakerState.CLOSED);
    assertThat(openai.openedBy()).isEmpty();
    assertThat(openai.openUntil()).isEmpty();
    assertThat(openai.tryAcquirePermission()).isTrue();
  }

  @Test
  void theLastThreeFailuresCountWhereverTheStreakBegan() {
    failAt(Duration.ZERO);
    failAt(Duration.ofSeconds(6));
    failAt(Duration.ofSeconds(12)); // 0 s to 12 s: too far apart
    assertThat(openai.state()).isEqualTo(BreakerState.CLOSED);

    failAt(Duration.ofSeconds(14)); // 6 s to 14 s: three within 8 s

    assertThat(openai.state()).isEqualTo(BreakerState.OPEN);
    assertThat(openai.openUntil()).contains(at(Duration.ofSeconds(44)));
  }

  @Test
  void aSuccessInBetweenResetsTheStreak() {
    failAt(Duration.ZERO);
    failAt(Duration.ofSeconds(1));
    openai.onSuccess(LATENCY);
    failAt(Duration.ofSeconds(2));
    failAt(Duration.ofSeconds(3));

    assertThat(openai.state()).isEqualTo(BreakerState.CLOSED);

    failAt(Duration.ofSeconds(4));

    assertThat(openai.state()).isEqualTo(BreakerState.OPEN);
  }

  @Test
  void staysOpenForExactlyThirtySecondsThenLetsExactlyOneProbeThrough() throws Exception {
    openAtZero(); // opened at 2 s

    clock.setTo(Duration.ofMillis(31_999));
    assertThat(openai.tryAcquirePermission()).isFalse();
    assertThat(openai.state()).isEqualTo(BreakerState.OPEN);

    clock.setTo(Duration.ofSeconds(32));
    assertThat(openai.state()).isEqualTo(BreakerState.HALF_OPEN);
    assertThat(openai.tryAcquirePermission()).isTrue();
    assertThat(openai.tryAcquirePermission()).isFalse();
    assertThat(CompletableFuture.supplyAsync(openai::tryAcquirePermission).get()).isFalse();
    assertThat(openai.state()).isEqualTo(BreakerState.HALF_OPEN);
  }

  @Test
  void aFailedProbeDoublesTheOpenTimeUpToMaxOpenFor() {
    openAtZero();
    List<Duration> openTimes = new ArrayList<>();
    for (int probe = 0; probe < 5; probe++) {
      probeAndFail();
      openTimes.add(Duration.between(clock.instant(), openai.openUntil().orElseThrow()));
      assertThat(openai.state()).isEqualTo(BreakerState.OPEN);
      assertThat(openai.tryAcquirePermission()).isFalse();
    }

    assertThat(openTimes).containsExactly(Duration.ofSeconds(60), Duration.ofSeconds(120),
        Duration.ofSeconds(240), Duration.ofMinutes(5), Duration.ofMinutes(5));
  }

  @Test
  void maxOpenForCapsTheBackOffWhereConfigured() {
    ProviderBreakers capped = ProviderBreakers.create(BreakerConfig.builder()
            .failures(1).openFor(Duration.ofSeconds(10)).maxOpenFor(Duration.ofSeconds(25)).build(),
        Optional.empty(), clock);
    closeables.add(capped);
    ProviderBreaker breaker = capped.breaker("openai");
    breaker.onFailure(FailureKind.RATE_LIMITED);
    List<Duration> openTimes = new ArrayList<>();
    openTimes.add(Duration.between(clock.instant(), breaker.openUntil().orElseThrow()));
    for (int probe = 0; probe < 3; probe++) {
      clock.advance(openTimes.get(openTimes.size() - 1));
      assertThat(breaker.tryAcquirePermission()).isTrue();
      breaker.onFailure(FailureKind.RATE_LIMITED);
      openTimes.add(Duration.between(clock.instant(), breaker.openUntil().orElseThrow()));
    }

    assertThat(openTimes).containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(20),
        Duration.ofSeconds(25), Duration.ofSeconds(25));
  }

  @Test
  void aSuccessfulProbeClosesAndResetsTheBackOff() {
    openAtZero();
    probeAndFail();
    probeAndFail(); // open for 120 s now
    clock.setTo(Duration.between(MutableClock.START, openai.openUntil().orElseThrow()));
    assertThat(openai.tryAcquirePermission()).isTrue();

    openai.onSuccess(LATENCY);

    assertThat(openai.state()).isEqualTo(BreakerState.CLOSED);
    assertThat(openai.openedBy()).isEmpty();
    assertThat(openai.openUntil()).isEmpty();
    assertThat(openai.tryAcquirePermission()).isTrue();
    Instant closedAt = clock.instant();
    openai.onFailure(FailureKind.SERVER_ERROR);
    openai.onFailure(FailureKind.SERVER_ERROR);
    assertThat(openai.state()).isEqualTo(BreakerState.CLOSED); // the streak began anew
    openai.onFailure(FailureKind.SERVER_ERROR);
    assertThat(openai.openUntil()).contains(closedAt.plusSeconds(30));
  }

  @Test
  void outcomesOfCallsLetThroughBeforeItOpenedChangeNothing() {
    openAtZero();
    clock.setTo(Duration.ofSeconds(10));

    openai.onFailure(FailureKind.TIMEOUT);
    openai.onSuccess(LATENCY);

    assertThat(openai.state()).isEqualTo(BreakerState.OPEN);
    assertThat(openai.openUntil()).contains(at(Duration.ofSeconds(32)));
  }

  @Test
  void anOutcomeWhileHalfOpenWithoutTheProbeOutChangesNothing() {
    openAtZero();
    clock.setTo(Duration.ofSeconds(32));

    openai.onSuccess(LATENCY);
    openai.onFailure(FailureKind.SERVER_ERROR);

    assertThat(openai.state()).isEqualTo(BreakerState.HALF_OPEN);
    assertThat(openai.tryAcquirePermission()).isTrue();
  }

  @Test
  void aReleasedPermissionLetsTheNextCallProbe() {
    openAtZero();
    clock.setTo(Duration.ofSeconds(32));
    assertThat(openai.tryAcquirePermission()).isTrue();

    openai.releasePermission();

    assertThat(openai.state()).isEqualTo(BreakerState.HALF_OPEN);
    assertThat(openai.tryAcquirePermission()).isTrue();
    assertThat(openai.tryAcquirePermission()).isFalse();
  }

  @Test
  void aProbeThatNeverReportsCountsAsFailedAfterTheProbeTimeout() {
    openAtZero();
    clock.setTo(Duration.ofSeconds(32));
    assertThat(openai.tryAcquirePermission()).isTrue();

    clock.setTo(Duration.ofSeconds(32).plus(ProviderBreakers.DEFAULT_PROBE_TIMEOUT).minusMillis(1));
    assertThat(openai.state()).isEqualTo(BreakerState.HALF_OPEN);
    clock.setTo(Duration.ofSeconds(32).plus(ProviderBreakers.DEFAULT_PROBE_TIMEOUT));

    assertThat(openai.state()).isEqualTo(BreakerState.OPEN);
    assertThat(openai.openUntil()).contains(at(Duration.ofSeconds(212))); // 152 s + 60 s
    assertThat(transitions.get(transitions.size() - 1).reason()).isEqualTo(TransitionReason.PROBE_LOST);
  }

  @Test
  void reportsEveryTransitionWithItsReasonAndOpenTime() {
    openAtZero();
    probeAndFail(); // at 32 s
    clock.setTo(Duration.ofSeconds(92));
    assertThat(openai.tryAcquirePermission()).isTrue();
    openai.onSuccess(LATENCY);

    assertThat(transitions).containsExactly(
        new BreakerTransition("openai", BreakerState.CLOSED, BreakerState.OPEN,
            TransitionReason.FAILURES, at(seconds(2)), Optional.of(at(seconds(32)))),
        new BreakerTransition("openai", BreakerState.OPEN, BreakerState.HALF_OPEN,
            TransitionReason.OPEN_TIME_ENDED, at(seconds(32)), Optional.of(at(seconds(32)))),
        new BreakerTransition("openai", BreakerState.HALF_OPEN, BreakerState.OPEN,
            TransitionReason.PROBE_FAILED, at(seconds(32)), Optional.of(at(seconds(92)))),
        new BreakerTransition("openai", BreakerState.OPEN, BreakerState.HALF_OPEN,
            TransitionReason.OPEN_TIME_ENDED, at(seconds(92)), Optional.of(at(seconds(92)))),
        new BreakerTransition("openai", BreakerState.HALF_OPEN, BreakerState.CLOSED,
            TransitionReason.PROBE_SUCCEEDED, at(seconds(92)), Optional.empty()));
  }

  @Test
  void eachProviderHasItsOwnBreaker() {
    openAtZero();

    ProviderBreaker backup = breakers.breaker("backup");

    assertThat(breakers.breaker("openai")).isSameAs(openai);
    assertThat(backup.name()).isEqualTo("backup");
    assertThat(backup.state()).isEqualTo(BreakerState.CLOSED);
    assertThat(backup.tryAcquirePermission()).isTrue();
  }
}
