package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The in-memory limiter drops full subjects a few per call, never by walking its whole table. */
class InMemorySweepTest {

  private static final Limits ONE_A_SECOND = Limits.of(Limit.requests(1, Duration.ofSeconds(1)));

  private final FakeClock clock = new FakeClock();
  private final InMemoryRateLimiter limiter = InMemoryRateLimiter.create(clock, Duration.ofMinutes(10));

  /** Charges {@code subject} one request and settles it: no open reservation keeps it. */
  private void charge(Subject subject) {
    limiter.settle(limiter.reserve(subject, ONE_A_SECOND, 1, 0).reservation().orElseThrow(), 0);
  }

  @Test
  void eachReserveDropsAtMostTwoFullSubjects() {
    for (int i = 0; i < 1_000; i++) {
      charge(Subject.of("tenant", "idle-" + i));
    }
    assertThat(limiter.size()).isEqualTo(1_000);
    clock.advance(Duration.ofSeconds(2)); // every one of them is full again

    limiter.reserve(Subject.of("tenant", "hot"), ONE_A_SECOND, 1, 0);

    assertThat(limiter.size()).as("two dropped, one added").isEqualTo(999);
  }

  @Test
  void fullSubjectsAreGoneAfterAsManyCallsAsHalfTheTable() {
    for (int i = 0; i < 1_000; i++) {
      charge(Subject.of("tenant", "idle-" + i));
    }
    clock.advance(Duration.ofSeconds(2));

    for (int i = 0; i < 501; i++) {
      limiter.reserve(Subject.of("tenant", "hot"), ONE_A_SECOND, 1, 0);
    }

    assertThat(limiter.size()).as("only the hot subject, which is not full").isEqualTo(1);
  }

  @Test
  void aSubjectThatIsNotFullIsNeverDropped() {
    Subject spent = Subject.of("tenant", "spent");
    charge(spent);
    clock.advance(Duration.ofMillis(500));

    for (int i = 0; i < 100; i++) {
      limiter.reserve(Subject.of("tenant", "other-" + i), ONE_A_SECOND, 1, 0);
    }

    assertThat(limiter.reserve(spent, ONE_A_SECOND, 1, 0).allowed()).isFalse();
  }

  @Test
  void aSubjectIsKeptWhileAnyOfItsGroupsIsNotFull() {
    Subject provider = Subject.of("provider", "openai");
    Limits daily = Limits.of(Limit.requests(1, Duration.ofDays(1))).inGroup("ma");
    Limits perSecond = Limits.of(Limit.requests(10, Duration.ofSeconds(1))).inGroup("mb");
    limiter.settle(limiter.reserve(provider, daily, 1, 0).reservation().orElseThrow(), 0);
    // a later step on a group that is full again within a second must not shorten the subject's life
    limiter.settle(limiter.reserve(provider, perSecond, 1, 0).reservation().orElseThrow(), 0);
    clock.advance(Duration.ofSeconds(5));

    for (int i = 0; i < 100; i++) {
      limiter.reserve(Subject.of("tenant", "other-" + i), ONE_A_SECOND, 1, 0);
    }

    assertThat(limiter.reserve(provider, daily, 1, 0).allowed()).isFalse();
  }
}
