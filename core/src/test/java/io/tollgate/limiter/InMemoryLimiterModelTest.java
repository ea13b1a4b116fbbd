package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The limiter's semantics on a clock the test moves: the reference every backend must match.
 */
class InMemoryLimiterModelTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final Duration DAY = Duration.ofDays(1);

  private final FakeClock clock = new FakeClock();
  private final InMemoryRateLimiter limiter = InMemoryRateLimiter.create(clock, Duration.ofMinutes(10));
  private final Subject tenant = Subject.of("tenant", "acme");

  @Test
  void deniesWhenTokensExhaustedEvenIfRequestsRemain() {
    Limits limits = Limits.of(Limit.requests(10, MINUTE), Limit.tokens(1000, MINUTE));

    assertThat(limiter.reserve(tenant, limits, 600).allowed()).isTrue();
    Decision denied = limiter.reserve(tenant, limits, 600);

    assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(denied.remainingRequests()).isEqualTo(9);
    assertThat(denied.remainingTokens()).isEqualTo(400);
    // 200 more tokens at 1000 per minute: 12 s
    assertThat(denied.retryAfter()).isEqualTo(Duration.ofSeconds(12));
    assertThat(denied.reservation()).isEmpty();
  }

  @Test
  void deniesWhenRequestsExhaustedEvenIfTokensRemain() {
    Limits limits = Limits.of(Limit.requests(2, MINUTE), Limit.tokens(100_000, MINUTE));

    limiter.reserve(tenant, limits, 10);
    limiter.reserve(tenant, limits, 10);
    Decision denied = limiter.reserve(tenant, limits, 10);

    assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(denied.remainingRequests()).isZero();
    assertThat(denied.remainingTokens()).isEqualTo(99_980);
    assertThat(denied.retryAfter()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void aDeniedCallChargesNothing() {
    Limits limits = Limits.of(Limit.requests(5, MINUTE), Limit.tokens(1000, MINUTE));
    limiter.reserve(tenant, limits, 900);

    limiter.reserve(tenant, limits, 200);
    Decision next = limiter.reserve(tenant, limits, 100);

    assertThat(next.allowed()).isTrue();
    assertThat(next.remainingRequests()).isEqualTo(3);
    assertThat(next.remainingTokens()).isZero();
  }

  @Test
  void perMinuteAndPerDayApplyTogether() {
    Limits limits = Limits.of(Limit.tokens(1000, MINUTE), Limit.tokens(1500, DAY));

    assertThat(limiter.reserve(tenant, limits, 1000).allowed()).isTrue();
    clock.advance(MINUTE);
    Decision denied = limiter.reserve(tenant, limits, 1000);

    assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(denied.limits()).extracting(LimitState::remaining).containsExactly(1000L, 501L); // the day limit refilled 1500 / 1440 tokens
    // the day limit refills 1500 per 86 400 s: 500 more tokens take 28 800 s
    assertThat(denied.retryAfter()).isEqualTo(Duration.ofSeconds(28_800).minus(MINUTE));
  }

  @Test
  void refillsContinuouslyAtCapacityPerWindow() {
    Limits limits = Limits.of(Limit.tokens(600, MINUTE));
    limiter.reserve(tenant, limits, 600);

    clock.advance(Duration.ofSeconds(10));

    assertThat(limiter.reserve(tenant, limits, 100).allowed()).isTrue();
    assertThat(limiter.reserve(tenant, limits, 1).outcome()).isEqualTo(Outcome.DENIED);
  }

  @Test
  void aCostAboveCapacityNeverFits() {
    Limits limits = Limits.of(Limit.requests(10, MINUTE), Limit.tokens(1000, MINUTE));

    Decision decision = limiter.reserve(tenant, limits, 1001);

    assertThat(decision.outcome()).isEqualTo(Outcome.NEVER_FITS);
    assertThat(decision.retryAfter()).isZero();
    assertThat(limiter.reserve(tenant, limits, 1000).allowed()).isTrue();
  }

  @Test
  void settleRefundsWhatWasNotUsed() {
    Limits limits = Limits.of(Limit.tokens(1000, MINUTE));
    Reservation reservation = limiter.reserve(tenant, limits, 800).reservation().orElseThrow();

    assertThat(limiter.settle(reservation, 300)).isTrue();

    assertThat(limiter.reserve(tenant, limits, 700).remainingTokens()).isZero();
  }

  @Test
  void aRefundNeverExceedsCapacity() {
    Limits limits = Limits.of(Limit.tokens(1000, MINUTE));
    Reservation reservation = limiter.reserve(tenant, limits, 800).reservation().orElseThrow();
    clock.advance(MINUTE);

    limiter.settle(reservation, 0);

    Decision next = limiter.reserve(tenant, limits, 1);
    assertThat(next.remainingTokens()).isEqualTo(999);
  }

  @Test
  void debtDelaysTheNextRequestByExactlyTheRightTime() {
    Limits limits = Limits.of(Limit.tokens(1000, MINUTE));
    Reservation reservation = limiter.reserve(tenant, limits, 500).reservation().orElseThrow();

    limiter.settle(reservation, 1300); // 300 tokens beyond the bucket: a debt of 300

    Decision denied = limiter.reserve(tenant, limits, 100);
    // back to +100 needs 400 tokens of refill: 24 s at 1000 per minute
    assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(denied.retryAfter()).isEqualTo(Duration.ofSeconds(24));
    clock.advance(Duration.ofSeconds(24).minusNanos(1000));
    assertThat(limiter.reserve(tenant, limits, 100).allowed()).isFalse();
    clock.advance(Duration.ofNanos(1000));
    assertThat(limiter.reserve(tenant, limits, 100).allowed()).isTrue();
  }

  @Test
  void settleHappensExactlyOnce() {
    Limits limits = Limits.of(Limit.tokens(1000, MINUTE));
    Reservation reservation = limiter.reserve(tenant, limits, 800).reservation().orElseThrow();

    assertThat(limiter.settle(reservation, 100)).isTrue();
    assertThat(limiter.settle(reservation, 100)).isFalse();
    assertThat(limiter.release(reservation)).isFalse();

    assertThat(limiter.reserve(tenant, limits, 1).remainingTokens()).isEqualTo(899);
  }

  @Test
  void anExpiredReservationCannotBeSettled() {
    InMemoryRateLimiter shortLived = InMemoryRateLimiter.create(clock, Duration.ofSeconds(30));
    Limits limits = Limits.of(Limit.tokens(1000, DAY));
    Reservation reservation = shortLived.reserve(tenant, limits, 800).reservation().orElseThrow();
    clock.advance(Duration.ofSeconds(30));

    assertThat(shortLived.settle(reservation, 0)).isFalse();
  }

  @Test
  void releaseGivesBackRequestsAndTokens() {
    Limits limits = Limits.of(Limit.requests(1, MINUTE), Limit.tokens(1000, MINUTE));
    Reservation reservation = limiter.reserve(tenant, limits, 1000).reservation().orElseThrow();

    assertThat(limiter.release(reservation)).isTrue();

    Decision again = limiter.reserve(tenant, limits, 1000);
    assertThat(again.allowed()).isTrue();
  }

  @Test
  void slidingWindowWeighsThePreviousWindowByItsOverlap() {
    Limits limits = Limits.of(Limit.of(Dimension.REQUESTS, 10, MINUTE, Algorithm.SLIDING_WINDOW));
    clock.advance(Duration.ofMillis(60_000 - clock.nowMicros() / 1000 % 60_000)); // window start
    for (int i = 0; i < 10; i++) {
      assertThat(limiter.reserve(tenant, limits, 1, 0).allowed()).isTrue();
    }
    assertThat(limiter.reserve(tenant, limits, 1, 0).retryAfter()).isEqualTo(Duration.ofSeconds(66));

    clock.advance(Duration.ofSeconds(75)); // 15 s into the next window: 10 × 45/60 = 7.5 still count

    Decision decision = limiter.reserve(tenant, limits, 2, 0);
    assertThat(decision.allowed()).isTrue();
    assertThat(decision.remainingRequests()).isZero();
    Decision denied = limiter.reserve(tenant, limits, 1, 0);
    // 2 + 10 × (60 - e)/60 <= 9 needs e >= 18 s: 3 s from now
    assertThat(denied.retryAfter()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void subjectsAreIndependentAndJointReservationsRollBack() {
    Subject provider = Subject.of("provider", "openai");
    Limits tenantLimits = Limits.of(Limit.tokens(1000, MINUTE));
    Limits providerLimits = Limits.of(Limit.tokens(500, MINUTE));

    JointDecision denied = limiter.reserveAll(
        java.util.List.of(new Charge(tenant, tenantLimits), new Charge(provider, providerLimits)),
        1, 800);

    assertThat(denied.allowed()).isFalse();
    assertThat(denied.decisions()).hasSize(2);
    assertThat(denied.denial().orElseThrow().outcome()).isEqualTo(Outcome.NEVER_FITS);
    assertThat(limiter.reserve(tenant, tenantLimits, 1000).allowed()).isTrue();
  }

  @Test
  void rejectsCostsThatMeanNothing() {
    Limits limits = Limits.of(Limit.tokens(1000, MINUTE));

    assertThatThrownBy(() -> limiter.reserve(tenant, limits, -1, 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1 requests");
    assertThatThrownBy(() -> limiter.reserve(tenant, limits, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
