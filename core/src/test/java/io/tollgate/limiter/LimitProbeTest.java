package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The probe takes the smallest cost, gives it back, and says what it took. */
class LimitProbeTest {

  // per hour, so that nothing refills while the test runs
  private static final Duration HOUR = Duration.ofHours(1);

  private final RateLimiter limiter = RateLimiter.inMemory();
  private final Subject subject = Subject.of("tenant", "acme");

  @Test
  void probesOneTokenWhereATokenLimitAppliesAndGivesItBack() {
    Limits limits = Limits.of(Limit.requests(5, HOUR),
        Limit.of(Dimension.TOKENS, 100, HOUR, Algorithm.TOKEN_BUCKET));
    limiter.reserve(subject, limits, 2, 30);

    LimitProbe first = LimitProbe.read(limiter, subject, limits);
    LimitProbe second = LimitProbe.read(limiter, subject, limits);

    assertThat(first.decision().allowed()).isTrue();
    assertThat(first.taken(Dimension.TOKENS)).isEqualTo(1);
    assertThat(first.taken(Dimension.REQUESTS)).isZero();
    assertThat(remaining(first)).containsExactly(3L, 69L);
    assertThat(remaining(second)).containsExactly(3L, 69L);
  }

  @Test
  void probesOneRequestWithoutATokenLimitAndTakesNothingWhenRefused() {
    Limits limits = Limits.of(Limit.requests(2, HOUR));

    LimitProbe withRoom = LimitProbe.read(limiter, subject, limits);
    limiter.reserve(subject, limits, 2, 0);
    LimitProbe spent = LimitProbe.read(limiter, subject, limits);

    assertThat(withRoom.taken(Dimension.REQUESTS)).isEqualTo(1);
    assertThat(remaining(withRoom)).containsExactly(1L);
    assertThat(spent.decision().allowed()).isFalse();
    assertThat(spent.taken(Dimension.REQUESTS)).isZero();
    assertThat(remaining(spent)).containsExactly(0L);
  }

  private static List<Long> remaining(LimitProbe probe) {
    return probe.decision().limits().stream().map(LimitState::remaining).toList();
  }
}
