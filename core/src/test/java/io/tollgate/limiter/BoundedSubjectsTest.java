package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** At most max-tracked subjects of a scope on their own; beyond, the overflow; nobody refreshed. */
class BoundedSubjectsTest {

  private static final Limits TWO_AN_HOUR = Limits.of(Limit.requests(2, Duration.ofHours(1)));
  /** Refills 100 tokens an hour: 10 tokens take 6 minutes, the whole bucket an hour. */
  private static final Limits HUNDRED_TOKENS_AN_HOUR = Limits.of(Limit.tokens(100, Duration.ofHours(1)));

  private final FakeClock clock = new FakeClock();
  private final InMemoryRateLimiter memory = InMemoryRateLimiter.create(clock, Duration.ofMinutes(10));

  private BoundedSubjects bounded(int maxTracked, Set<Subject> pinned) {
    return BoundedSubjects.builder(memory, "tenant").maxTracked(maxTracked).pinned(pinned).clock(clock).build();
  }

  private static Subject tenant(String id) {
    return Subject.of("tenant", id);
  }

  /** Reserves {@code tokens} for {@code tenant} and settles them, as a front end does; returns who was charged. */
  private static Subject charge(BoundedSubjects limiter, String tenant, long tokens) {
    Decision decision = limiter.reserve(tenant(tenant), HUNDRED_TOKENS_AN_HOUR, 1, tokens);
    assertThat(decision.allowed()).as(tenant).isTrue();
    limiter.settle(decision.reservation().orElseThrow(), tokens);
    return chargedTo(decision);
  }

  private static Subject chargedTo(Decision decision) {
    return decision.reservation().orElseThrow().subject();
  }

  @Test
  void beyondTheCapNewSubjectsShareOneOverflowWithTheLimitsTheyCameWith() {
    BoundedSubjects limiter = bounded(3, Set.of());
    int admitted = 0;
    for (int i = 0; i < 10; i++) {
      for (int attempt = 0; attempt < 3; attempt++) {
        admitted += limiter.reserve(tenant("t" + i), TWO_AN_HOUR, 1, 0).allowed() ? 1 : 0;
      }
    }

    assertThat(admitted).as("3 tenants x 2 + the overflow's 2").isEqualTo(8);
    assertThat(limiter.tracked()).isEqualTo(3);
    assertThat(memory.size()).as("three tenants and the overflow").isEqualTo(4);
    assertThat(chargedTo(limiter.reserve(tenant("t0"), HUNDRED_TOKENS_AN_HOUR, 1, 1))).isEqualTo(tenant("t0"));
    assertThat(chargedTo(limiter.reserve(tenant("t9"), HUNDRED_TOKENS_AN_HOUR, 1, 1)))
        .isEqualTo(Subject.overflow("tenant"));
  }

  @Test
  void aSpentSubjectIsNeverForgottenWhileTwiceTheCapOfOthersPass() {
    BoundedSubjects limiter = bounded(3, Set.of());
    charge(limiter, "spent", 100);
    charge(limiter, "light-1", 10);
    charge(limiter, "light-2", 10);
    clock.advance(Duration.ofMinutes(7)); // light-1 and light-2 are full again; spent has 11 tokens back

    List<Subject> chargedTo = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      chargedTo.add(charge(limiter, "new-" + i, 10));
    }
    Decision spentAgain = limiter.reserve(tenant("spent"), HUNDRED_TOKENS_AN_HOUR, 1, 50);

    assertThat(chargedTo).containsExactly(tenant("new-0"), tenant("new-1"), Subject.overflow("tenant"),
        Subject.overflow("tenant"), Subject.overflow("tenant"), Subject.overflow("tenant"));
    assertThat(spentAgain.allowed()).as("spent is still spent: no fresh bucket, no overflow").isFalse();
    assertThat(spentAgain.remainingTokens()).isEqualTo(11);
    assertThat(limiter.tracked()).isEqualTo(3);
  }

  @Test
  void aSettleBeyondTheEstimateKeepsTheSubjectUntilItsDebtIsRefilled() {
    BoundedSubjects limiter = bounded(1, Set.of());
    Decision small = limiter.reserve(tenant("a"), HUNDRED_TOKENS_AN_HOUR, 1, 10); // full again in 6 min
    limiter.settle(small.reservation().orElseThrow(), 100); // used the whole bucket: full in an hour
    clock.advance(Duration.ofMinutes(7));

    Decision other = limiter.reserve(tenant("b"), HUNDRED_TOKENS_AN_HOUR, 1, 10);
    Decision aAgain = limiter.reserve(tenant("a"), HUNDRED_TOKENS_AN_HOUR, 1, 50);

    assertThat(chargedTo(other)).isEqualTo(Subject.overflow("tenant"));
    assertThat(aAgain.allowed()).isFalse();
    assertThat(aAgain.remainingTokens()).isEqualTo(11);
  }

  @Test
  void aFullSubjectIsForgottenAndComesBackAsItWas() {
    BoundedSubjects limiter = bounded(1, Set.of());
    limiter.reserve(tenant("a"), TWO_AN_HOUR, 1, 0);
    clock.advance(Duration.ofMinutes(31)); // a is full again

    assertThat(chargedTo(limiter.reserve(tenant("b"), TWO_AN_HOUR, 1, 0))).isEqualTo(tenant("b"));
    Decision aAgain = limiter.reserve(tenant("a"), TWO_AN_HOUR, 1, 0);

    assertThat(chargedTo(aAgain)).isEqualTo(Subject.overflow("tenant"));
    assertThat(aAgain.remainingRequests()).isEqualTo(1);
    assertThat(limiter.tracked()).isEqualTo(1);
  }

  @Test
  void pinnedSubjectsAndOtherScopesAreNeitherCountedNorOverflowed() {
    BoundedSubjects limiter = bounded(1, Set.of(tenant("premium")));
    limiter.reserve(tenant("a"), TWO_AN_HOUR, 1, 0);

    assertThat(chargedTo(limiter.reserve(tenant("premium"), TWO_AN_HOUR, 1, 0))).isEqualTo(tenant("premium"));
    assertThat(chargedTo(limiter.reserve(Subject.of("provider", "openai"), TWO_AN_HOUR, 1, 0)))
        .isEqualTo(Subject.of("provider", "openai"));
    assertThat(chargedTo(limiter.reserve(Subject.of("inbound", "b"), TWO_AN_HOUR, 1, 0)))
        .isEqualTo(Subject.of("inbound", "b"));
    assertThat(limiter.tracked()).isEqualTo(1);
  }

  @Test
  void aJointReserveChargesTheOverflowInPlaceOfAnUntrackedTenant() {
    BoundedSubjects limiter = bounded(1, Set.of());
    limiter.reserve(tenant("a"), TWO_AN_HOUR, 1, 0);
    Subject provider = Subject.of("provider", "openai");

    JointDecision joint = limiter.reserveAll(List.of(new Charge(provider, TWO_AN_HOUR),
        new Charge(tenant("b"), TWO_AN_HOUR)), 1, 0);

    assertThat(joint.reservations()).extracting(Reservation::subject)
        .containsExactly(provider, Subject.overflow("tenant"));
  }

  @Test
  void neverTracksMoreThanTheCapUnderConcurrency() throws Exception {
    BoundedSubjects limiter = bounded(100, Set.of());
    AtomicInteger admitted = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        work.add(pool.submit(() -> {
          for (int i = 0; i < 5_000; i++) {
            if (limiter.reserve(tenant(thread + "-" + i), Limits.of(Limit.requests(1, Duration.ofHours(1))), 1, 0)
                .allowed()) {
              admitted.incrementAndGet();
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

    assertThat(limiter.tracked()).isEqualTo(100);
    assertThat(memory.size()).isEqualTo(101);
    assertThat(admitted.get()).as("one each for 100 tenants, one for the overflow").isEqualTo(101);
  }
}
