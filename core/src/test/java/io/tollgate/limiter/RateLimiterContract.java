package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What every backend must do, asserted on real time. Limits use a window of a year, so that the
 * refill during a test (a few tokens per day) never changes a count; time-dependent arithmetic is
 * asserted exactly on a fake clock by {@link InMemoryLimiterModelTest}.
 */
abstract class RateLimiterContract {

  static final Duration YEAR = Duration.ofDays(365);

  /** A limiter on a clean backend. */
  abstract RateLimiter limiter();

  private final AtomicLong subjects = new AtomicLong();

  /** A subject no other test touches. */
  Subject freshSubject() {
    return Subject.of("tenant", getClass().getSimpleName() + "-" + subjects.incrementAndGet()
        + "-" + System.nanoTime());
  }

  /** A provider account no other test touches, to charge beside {@code tenant}. */
  static Subject providerBeside(Subject tenant) {
    return Subject.of("provider", "openai-" + tenant.idHash());
  }

  /** One request and {@code tokens} reserved on the tenant, then the provider, as the gate does. */
  JointDecision reserveBoth(Subject tenant, Limits tenantLimits, Subject provider,
      Limits providerLimits, long tokens) {
    return limiter().reserveAll(
        List.of(new Charge(tenant, tenantLimits), new Charge(provider, providerLimits)), 1, tokens);
  }

  @Test
  void groupsOfOneSubjectCountApartAndWithTheSubjectsOwnLimitsAllOrNone() {
    Subject provider = freshSubject();
    Limits account = Limits.of(Limit.requests(3, YEAR));
    Limits modelA = account.and(Limits.of(Limit.requests(2, YEAR)).inGroup("ma"));
    Limits modelB = account.and(Limits.of(Limit.requests(2, YEAR)).inGroup("mb"));

    List<Outcome> outcomes = List.of(
        limiter().reserve(provider, modelA, 1, 0).outcome(),
        limiter().reserve(provider, modelA, 1, 0).outcome(),
        limiter().reserve(provider, modelA, 1, 0).outcome(), // model A is spent; the account is not charged
        limiter().reserve(provider, modelB, 1, 0).outcome(),
        limiter().reserve(provider, modelB, 1, 0).outcome()); // the account is spent
    Decision last = limiter().reserve(provider, modelB, 1, 0);

    assertThat(outcomes).containsExactly(Outcome.ALLOWED, Outcome.ALLOWED, Outcome.DENIED,
        Outcome.ALLOWED, Outcome.DENIED);
    assertThat(last.limits()).extracting(LimitState::remaining).containsExactly(0L, 1L);
  }

  @Test
  void aGroupRefillsFromItsOwnClockWhateverOtherGroupsDoMeanwhile() throws InterruptedException {
    Subject provider = freshSubject();
    Limits modelA = Limits.of(Limit.requests(1, Duration.ofSeconds(1))).inGroup("ma");
    Limits modelB = Limits.of(Limit.requests(1, Duration.ofSeconds(1))).inGroup("mb");

    assertThat(limiter().reserve(provider, modelA, 1, 0).allowed()).isTrue();
    Thread.sleep(600);
    assertThat(limiter().reserve(provider, modelB, 1, 0).allowed()).isTrue();
    Thread.sleep(500);
    // a full second after A's call: A is full again, though B's step came between
    Decision again = limiter().reserve(provider, modelA, 1, 0);

    assertThat(again.allowed()).isTrue();
  }

  @Test
  void lowerRoomLeavesAtMostWhatIsAskedAndNeverRaisesIt() {
    Subject provider = freshSubject();
    Limits limits = Limits.of(Limit.requests(100, YEAR), Limit.tokens(10_000, YEAR));
    Limits slidingTokens = Limits.of(Limit.of(Dimension.TOKENS, 10_000, YEAR, Algorithm.SLIDING_WINDOW));
    Subject other = freshSubject();

    limiter().lowerRoom(provider, limits, 5, -1);
    Decision lowered = limiter().reserve(provider, limits, 1, 100);
    limiter().lowerRoom(provider, limits, 50, 20_000); // more than is left: nothing changes
    Decision kept = limiter().reserve(provider, limits, 1, 100);
    limiter().lowerRoom(other, slidingTokens, -1, 300);
    Decision sliding = limiter().reserve(other, slidingTokens, 1, 100);

    assertThat(lowered.limits()).extracting(LimitState::remaining).containsExactly(4L, 9_900L);
    assertThat(kept.limits()).extracting(LimitState::remaining).containsExactly(3L, 9_800L);
    assertThat(sliding.limits()).extracting(LimitState::remaining).containsExactly(200L);
  }

  @Test
  void lowerRoomOfOneGroupLeavesTheOthersAlone() {
    Subject provider = freshSubject();
    Limits modelA = Limits.of(Limit.requests(10, YEAR)).inGroup("ma");
    Limits modelB = Limits.of(Limit.requests(10, YEAR)).inGroup("mb");

    limiter().lowerRoom(provider, modelA, 1, -1);
    List<Outcome> outcomes = List.of(limiter().reserve(provider, modelA, 1, 0).outcome(),
        limiter().reserve(provider, modelA, 1, 0).outcome());
    Decision b = limiter().reserve(provider, modelB, 1, 0);

    assertThat(outcomes).containsExactly(Outcome.ALLOWED, Outcome.DENIED);
    assertThat(b.limits()).extracting(LimitState::remaining).containsExactly(9L);
  }

  @Test
  void spendIsTakenWithRequestsAndTokensAllOrNone() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.requests(10, YEAR), Limit.spendPerDay(1_000_000));

    long day = Duration.ofDays(1).toMillis();
    long untilMidnight = day - System.currentTimeMillis() % day; // taken before: an upper bound
    Decision first = limiter().reserve(tenant, limits, 1, 100, 600_000);
    Decision denied = limiter().reserve(tenant, limits, 1, 100, 600_000);

    assertThat(first.allowed()).isTrue();
    assertThat(first.reservation().orElseThrow().spend()).isEqualTo(600_000);
    assertThat(first.limits()).extracting(LimitState::remaining).containsExactly(9L, 400_000L);
    assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(denied.limits()).extracting(LimitState::remaining).containsExactly(9L, 400_000L);
    // room comes back with the next UTC day, not before
    assertThat(denied.retryAfter().toMillis()).isBetween(untilMidnight - 5_000, untilMidnight);
  }

  @Test
  void aSettleReplacesTheReservedSpendAndAReleaseGivesItBack() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.spendPerMonth(1_000_000), Limit.tokens(10_000, YEAR));

    Reservation cheaper = limiter().reserve(tenant, limits, 1, 100, 600_000).reservation().orElseThrow();
    assertThat(limiter().settle(cheaper, 100, 150_000)).isTrue();
    Reservation dearer = limiter().reserve(tenant, limits, 1, 100, 100_000).reservation().orElseThrow();
    assertThat(limiter().settle(dearer, 100, 300_000)).isTrue();
    Reservation released = limiter().reserve(tenant, limits, 1, 100, 200_000).reservation().orElseThrow();
    assertThat(limiter().release(released)).isTrue();
    Decision after = limiter().reserve(tenant, limits, 1, 100, 550_000);

    // 150,000 + 300,000 spent; the release gave its 200,000 back; 550,000 fits exactly
    assertThat(after.allowed()).isTrue();
    assertThat(after.limits()).extracting(LimitState::remaining).containsExactly(0L, 9_700L);
    assertThat(limiter().reserve(tenant, limits, 1, 100, 1).allowed()).isFalse();
  }

  @Test
  void aSpendAboveTheWholeBudgetNeverFits() {
    Decision decision = limiter().reserve(freshSubject(), Limits.of(Limit.spendPerDay(1_000)),
        1, 10, 1_001);

    assertThat(decision.outcome()).isEqualTo(Outcome.NEVER_FITS);
  }

  @Test
  void sixteenThreadsNeverSpendMoreThanTheBudget() throws Exception {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.spendPerDay(1_000_000));
    AtomicLong spent = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        workers.add(pool.submit(() -> {
          for (int i = 0; i < 40; i++) {
            // reserved at 5,000; the call really costs 1,000 to 5,000
            Decision decision = limiter().reserve(tenant, limits, 1, 10, 5_000);
            if (decision.allowed()) {
              long cost = 1_000 + (i % 5) * 1_000;
              limiter().settle(decision.reservation().orElseThrow(), 10, cost);
              spent.addAndGet(cost);
            }
          }
          return null;
        }));
      }
      for (Future<?> worker : workers) {
        worker.get();
      }
    } finally {
      pool.shutdown();
    }
    Decision last = limiter().reserve(tenant, limits, 1, 10, 1);

    assertThat(spent.get()).isLessThanOrEqualTo(1_000_000);
    assertThat(last.limits().get(0).remaining()).isEqualTo(1_000_000 - spent.get() - (last.allowed() ? 1 : 0));
  }

  @Test
  void deniesWhenTokensExhaustedEvenIfRequestsRemain() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.requests(10, YEAR), Limit.tokens(1000, YEAR));

    Decision first = limiter().reserve(tenant, limits, 600);
    Decision denied = limiter().reserve(tenant, limits, 600);

    assertThat(first.outcome()).isEqualTo(Outcome.ALLOWED);
    assertThat(first.remainingRequests()).isEqualTo(9);
    assertThat(first.remainingTokens()).isEqualTo(400);
    assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(denied.remainingRequests()).isEqualTo(9);
    assertThat(denied.remainingTokens()).isEqualTo(400);
    assertThat(denied.reservation()).isEmpty();
    assertThat(denied.degraded()).isFalse();
  }

  @Test
  void deniesWhenRequestsExhaustedEvenIfTokensRemain() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.requests(2, YEAR), Limit.tokens(100_000, YEAR));

    limiter().reserve(tenant, limits, 10);
    limiter().reserve(tenant, limits, 10);
    Decision denied = limiter().reserve(tenant, limits, 10);

    assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(denied.remainingRequests()).isZero();
    assertThat(denied.remainingTokens()).isEqualTo(99_980);
  }

  @Test
  void retryAfterIsTheTimeUntilEveryLimitHasRoom() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.requests(100, Duration.ofDays(1)),
        Limit.tokens(8_640, Duration.ofDays(1)));
    limiter().reserve(tenant, limits, 8_000);

    Decision denied = limiter().reserve(tenant, limits, 1_000);

    // 360 more tokens at 8 640 per day (one per 10 s): 3 600 s, less what refilled meanwhile
    assertThat(denied.retryAfter().toMillis()).isCloseTo(3_600_000L, within(1_000L));
    assertThat(denied.resetAfter().toMillis()).isCloseTo(80_000_000L, within(1_000L));
  }

  @Test
  void aDeniedCallChargesNothing() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.requests(5, YEAR), Limit.tokens(1000, YEAR));
    limiter().reserve(tenant, limits, 900);

    limiter().reserve(tenant, limits, 200);
    Decision next = limiter().reserve(tenant, limits, 100);

    assertThat(next.allowed()).isTrue();
    assertThat(next.remainingRequests()).isEqualTo(3);
    assertThat(next.remainingTokens()).isZero();
  }

  @Test
  void aCostAboveCapacityNeverFits() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.requests(3, YEAR), Limit.tokens(1000, YEAR));

    assertThat(limiter().reserve(tenant, limits, 1001).outcome()).isEqualTo(Outcome.NEVER_FITS);
    assertThat(limiter().reserve(tenant, limits, 4, 10).outcome()).isEqualTo(Outcome.NEVER_FITS);
    assertThat(limiter().reserve(tenant, limits, 3, 1000).remainingTokens()).isZero();
  }

  @Test
  void settleRefundsOnceAndOnlyOnce() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.tokens(1000, YEAR));
    Reservation reservation = limiter().reserve(tenant, limits, 800).reservation().orElseThrow();

    assertThat(limiter().settle(reservation, 300)).isTrue();
    assertThat(limiter().settle(reservation, 300)).isFalse();
    assertThat(limiter().release(reservation)).isFalse();

    assertThat(limiter().reserve(tenant, limits, 1).remainingTokens()).isEqualTo(699);
  }

  @Test
  void aSettleHandedOverIsAppliedOnceWhenSettled() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.tokens(1000, YEAR));
    Reservation reservation = limiter().reserve(tenant, limits, 800).reservation().orElseThrow();

    limiter().settleLater(reservation, 300);
    limiter().settleLater(reservation, 900); // a duplicate changes nothing

    assertThat(limiter().awaitSettled(Duration.ofSeconds(30))).isTrue();
    assertThat(limiter().settle(reservation, 300)).isFalse();
    assertThat(limiter().reserve(tenant, limits, 1).remainingTokens()).isEqualTo(699);
  }

  @Test
  void settleEachAppliesEveryReservationOnce() {
    Subject tenant = freshSubject();
    Subject other = freshSubject();
    Limits limits = Limits.of(Limit.requests(100, YEAR), Limit.tokens(10_000, YEAR));
    List<Settlement> settlements = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      settlements.add(new Settlement(
          limiter().reserve(tenant, limits, 500).reservation().orElseThrow(), 100));
      settlements.add(new Settlement(
          limiter().reserve(other, limits, 500).reservation().orElseThrow(), 700));
    }
    settlements.add(settlements.get(0));
    settlements.add(new Settlement(settlements.get(1).reservation(), 0));

    assertThat(limiter().settleEach(settlements)).isEqualTo(10);
    // five calls each, settled at 100 and 700 tokens, and the one reserved to read
    assertThat(limiter().reserve(tenant, limits, 1).remainingTokens()).isEqualTo(10_000 - 500 - 1);
    assertThat(limiter().reserve(other, limits, 1).remainingTokens()).isEqualTo(10_000 - 3_500 - 1);
  }

  @Test
  void settleChargesUsageBeyondTheEstimateAsDebt() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.tokens(1000, Duration.ofDays(1)));
    Reservation reservation = limiter().reserve(tenant, limits, 500).reservation().orElseThrow();

    limiter().settle(reservation, 1100); // 100 tokens of debt

    Decision denied = limiter().reserve(tenant, limits, 100);
    assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(denied.remainingTokens()).isZero();
    // from -100 to +100 at 1000 per day: 200 × 86.4 s
    assertThat(denied.retryAfter().toMillis()).isCloseTo(17_280_000L, within(1_000L));
  }

  @Test
  void anAbsurdUsageIsChargedAsDebtCappedAtThreeWindows() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.tokens(1000, Duration.ofDays(1)));
    Reservation reservation = limiter().reserve(tenant, limits, 500).reservation().orElseThrow();

    limiter().settle(reservation, Long.MAX_VALUE);

    Decision denied = limiter().reserve(tenant, limits, 100);
    assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(denied.remainingTokens()).isZero();
    // from -3000 (three windows of debt) to +100 at 1000 per day: 3100 × 86.4 s
    assertThat(denied.retryAfter().toMillis()).isCloseTo(267_840_000L, within(1_000L));
  }

  @Test
  void aRefundNeverExceedsCapacity() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.requests(10, YEAR), Limit.tokens(1000, YEAR));
    Reservation reservation = limiter().reserve(tenant, limits, 800).reservation().orElseThrow();
    Reservation other = limiter().reserve(tenant, limits, 100).reservation().orElseThrow();
    limiter().release(other);

    limiter().settle(reservation, 0);

    Decision next = limiter().reserve(tenant, limits, 1000);
    assertThat(next.allowed()).isTrue();
    assertThat(next.remainingTokens()).isZero();
    assertThat(limiter().reserve(tenant, limits, 1).allowed()).isFalse();
  }

  @Test
  void releaseGivesBackRequestsAndTokens() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.requests(1, YEAR), Limit.tokens(1000, YEAR));
    Reservation reservation = limiter().reserve(tenant, limits, 1000).reservation().orElseThrow();

    assertThat(limiter().release(reservation)).isTrue();

    Decision again = limiter().reserve(tenant, limits, 1000);
    assertThat(again.allowed()).isTrue();
    assertThat(again.remainingRequests()).isZero();
    assertThat(again.remainingTokens()).isZero();
  }

  @Test
  void aJointReservationReleasesEarlierSubjectsWhenALaterOneDenies() {
    Subject tenant = freshSubject();
    Subject provider = providerBeside(tenant);
    Limits tenantLimits = Limits.of(Limit.tokens(1000, YEAR));
    Limits providerLimits = Limits.of(Limit.tokens(1000, YEAR));
    limiter().reserve(provider, providerLimits, 700);

    JointDecision denied = reserveBoth(tenant, tenantLimits, provider, providerLimits, 400);

    assertThat(denied.allowed()).isFalse();
    assertThat(denied.denial().orElseThrow().remainingTokens()).isEqualTo(300);
    assertThat(limiter().reserve(tenant, tenantLimits, 1000).allowed()).isTrue();
  }

  @Test
  void aJointReservationChargesEverySubjectWhenEachHasRoom() {
    Subject tenant = freshSubject();
    Subject provider = providerBeside(tenant);
    Limits tenantLimits = Limits.of(Limit.tokens(1000, YEAR));
    Limits providerLimits = Limits.of(Limit.requests(5, YEAR), Limit.tokens(2000, YEAR));

    JointDecision allowed = reserveBoth(tenant, tenantLimits, provider, providerLimits, 400);

    assertThat(allowed.allowed()).isTrue();
    assertThat(allowed.decisions()).extracting(Decision::remainingTokens).containsExactly(600L, 1600L);
    assertThat(allowed.decisions().get(1).remainingRequests()).isEqualTo(4);
    assertThat(allowed.reservations()).extracting(Reservation::subject)
        .containsExactly(tenant, provider);
    allowed.reservations().forEach(reservation ->
        assertThat(limiter().settle(reservation, 100)).isTrue());
    assertThat(limiter().reserve(tenant, tenantLimits, 1, 0).remainingTokens()).isEqualTo(900);
    assertThat(limiter().reserve(provider, providerLimits, 1, 0).remainingTokens()).isEqualTo(1900);
  }

  @Test
  void aJointReservationDeniedByTheFirstSubjectChargesNone() {
    Subject tenant = freshSubject();
    Subject provider = providerBeside(tenant);
    Limits tenantLimits = Limits.of(Limit.tokens(1000, YEAR));
    Limits providerLimits = Limits.of(Limit.requests(5, YEAR), Limit.tokens(1000, YEAR));
    limiter().reserve(tenant, tenantLimits, 700);

    JointDecision denied = reserveBoth(tenant, tenantLimits, provider, providerLimits, 400);

    assertThat(denied.allowed()).isFalse();
    // the answer ends at the denial, whichever subjects a backend asked at once
    assertThat(denied.decisions()).hasSize(1);
    assertThat(denied.denial().orElseThrow().remainingTokens()).isEqualTo(300);
    Decision untouched = limiter().reserve(provider, providerLimits, 1000);
    assertThat(untouched.allowed()).isTrue();
    assertThat(untouched.remainingRequests()).isEqualTo(4);
  }

  @Test
  void aJointReservationThatNeverFitsOneSubjectChargesNone() {
    Subject tenant = freshSubject();
    Subject provider = providerBeside(tenant);
    Limits tenantLimits = Limits.of(Limit.tokens(1000, YEAR));
    Limits providerLimits = Limits.of(Limit.tokens(300, YEAR));

    JointDecision denied = reserveBoth(tenant, tenantLimits, provider, providerLimits, 400);

    assertThat(denied.allowed()).isFalse();
    assertThat(denied.denial().orElseThrow().outcome()).isEqualTo(Outcome.NEVER_FITS);
    assertThat(limiter().reserve(tenant, tenantLimits, 1000).allowed()).isTrue();
  }

  @Test
  void slidingWindowCountsUpToCapacity() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.of(Dimension.REQUESTS, 5, YEAR, Algorithm.SLIDING_WINDOW),
        Limit.of(Dimension.TOKENS, 1000, YEAR, Algorithm.SLIDING_WINDOW));

    for (int i = 0; i < 4; i++) {
      assertThat(limiter().reserve(tenant, limits, 100).allowed()).isTrue();
    }
    Decision fifth = limiter().reserve(tenant, limits, 600);
    Decision sixth = limiter().reserve(tenant, limits, 1);

    assertThat(fifth.allowed()).isTrue();
    assertThat(fifth.remainingRequests()).isZero();
    assertThat(fifth.remainingTokens()).isZero();
    assertThat(sixth.outcome()).isEqualTo(Outcome.DENIED);
    Reservation last = fifth.reservation().orElseThrow();
    limiter().settle(last, 100);
    assertThat(limiter().reserve(tenant, limits, 0, 500).allowed()).isTrue();
  }

  @Test
  void hostileIdsGetSafeDistinctSubjects() {
    Limits limits = Limits.of(Limit.requests(1, YEAR));
    String base = freshSubject().idHash();
    List<String> ids = List.of(base + "{a}", base + "{a", base + "a}", base + "\n{a}\r\n",
        base + "x".repeat(10_000), base + "x".repeat(10_001), base + "", base + "\u0000");

    for (String id : ids) {
      Subject subject = Subject.of("tenant", id);
      assertThat(subject.hashTag()).matches("\\{tenant:[A-Za-z0-9_-]{20}\\}");
      assertThat(limiter().reserve(subject, limits, 1, 0).allowed()).as(id).isTrue();
    }
  }

  @Test
  void admitsExactlyCapacityUnderConcurrency() throws Exception {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.requests(500, YEAR), Limit.tokens(50_000, YEAR));
    AtomicInteger admitted = new AtomicInteger();
    AtomicLong tokens = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> work = new java.util.ArrayList<>();
      for (int t = 0; t < 16; t++) {
        int cost = 40 + t * 10; // 40..190 tokens
        work.add(pool.submit(() -> {
          for (int i = 0; i < 60; i++) {
            if (limiter().reserve(tenant, limits, cost).allowed()) {
              admitted.incrementAndGet();
              tokens.addAndGet(cost);
            }
          }
        }));
      }
      for (Future<?> f : work) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Decision after = limiter().reserve(tenant, limits, 0, 1); // tokens only, to read what is left
    assertThat(admitted.get()).isLessThanOrEqualTo(500);
    assertThat(tokens.get()).isLessThanOrEqualTo(50_000);
    // nothing lost or double-counted: what remains is exactly what was not admitted
    assertThat(after.remainingTokens())
        .isEqualTo(50_000 - tokens.get() - (after.allowed() ? 1 : 0));
    assertThat(after.remainingRequests()).isEqualTo(500 - admitted.get());
    assertThat(admitted.get()).isGreaterThan(300); // 960 attempts of 40..190 tokens: saturated
  }

  @Test
  void eachPriorityClassStopsAtItsShareAndTheHigherOnesUseTheRest() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.requests(10, YEAR),
        Limit.of(Dimension.TOKENS, 1_000, YEAR, Algorithm.SLIDING_WINDOW));
    Limits batch = limits.sharing(0.7);
    Limits normal = limits.sharing(0.9);

    List<Boolean> batchCalls = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      batchCalls.add(limiter().reserve(tenant, batch, 1, 10).allowed());
    }
    List<Boolean> normalCalls = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      normalCalls.add(limiter().reserve(tenant, normal, 1, 10).allowed());
    }
    List<Boolean> criticalCalls = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      criticalCalls.add(limiter().reserve(tenant, limits, 1, 10).allowed());
    }

    assertThat(batchCalls).containsExactly(true, true, true, true, true, true, true, false);
    assertThat(normalCalls).containsExactly(true, true, false);
    assertThat(criticalCalls).containsExactly(true, false);
    // one count for every class: what the classes above batch took is gone for batch too
    assertThat(limiter().reserve(tenant, batch, 0, 1).remainingTokens()).isEqualTo(1_000 - 100);
  }

  @Test
  void aClassNeverTakesMoreThanItsShareOfATokenLimitOrABudget() {
    Subject tenant = freshSubject();
    Limits limits = Limits.of(Limit.tokens(1_000, YEAR), Limit.spendPerMonth(1_000_000));
    Limits batch = limits.sharing(0.7);

    assertThat(limiter().reserve(tenant, batch, 0, 600, 100_000).allowed()).isTrue();
    assertThat(limiter().reserve(tenant, batch, 0, 101, 100_000).allowed()).isFalse(); // 701 tokens
    assertThat(limiter().reserve(tenant, batch, 0, 100, 600_001).allowed()).isFalse(); // 700,001 µUSD
    assertThat(limiter().reserve(tenant, batch, 0, 100, 600_000).allowed()).isTrue();
    // a cost above the class's share can never fit it, though the limit itself could hold it
    assertThat(limiter().reserve(freshSubject(), batch, 0, 701, 0).outcome())
        .isEqualTo(Outcome.NEVER_FITS);
  }

  @Test
  void underBatchTrafficSaturatingTheLimitCriticalCallsStillGetTheirReservedShare()
      throws Exception {
    Subject account = freshSubject();
    Limits limits = Limits.of(Limit.requests(100, YEAR));
    Limits batch = limits.sharing(0.7);
    AtomicInteger batchAdmitted = new AtomicInteger();
    AtomicInteger criticalAdmitted = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        boolean critical = t % 4 == 0; // 4 critical threads beside 12 of batch
        work.add(pool.submit(() -> {
          for (int i = 0; i < 30; i++) {
            if (critical) {
              if (limiter().reserve(account, limits, 1, 0).allowed()) {
                criticalAdmitted.incrementAndGet();
              }
            } else if (limiter().reserve(account, batch, 1, 0).allowed()) {
              batchAdmitted.incrementAndGet();
            }
          }
        }));
      }
      for (Future<?> f : work) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(batchAdmitted.get()).isLessThanOrEqualTo(70);
    assertThat(criticalAdmitted.get()).isGreaterThanOrEqualTo(30);
    assertThat(batchAdmitted.get() + criticalAdmitted.get()).isEqualTo(100);
  }
}
