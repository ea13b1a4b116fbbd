package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What a JVM asks for when it takes a lease, from the demand it saw. */
class LeaseSizingTest {

  private static final Duration TTL = Duration.ofMillis(200);
  private static final long MS = 1_000_000;
  private static final Limits ROOMY = Limits.of(
      Limit.requests(6_000_000, Duration.ofMinutes(1)),
      Limit.tokens(6_000_000_000L, Duration.ofMinutes(1)));

  @Test
  void autoAsksForTheDemandSeenBroughtToOneTtl() {
    // 100 calls of 500 tokens in 50 ms: 400 calls in 200 ms
    LeaseSizing.Want want = LeaseSizing.want(LeasePolicy.auto(TTL), ROOMY, 100, 50_000, 50 * MS);

    assertThat(want).isEqualTo(new LeaseSizing.Want(400, 200_000));
  }

  @Test
  void autoShrinksWhenDemandDrops() {
    // 10 calls in 2 s: 1 call in 200 ms
    LeaseSizing.Want want = LeaseSizing.want(LeasePolicy.auto(TTL), ROOMY, 10, 5_000, 2_000 * MS);

    assertThat(want).isEqualTo(new LeaseSizing.Want(1, 500));
  }

  @Test
  void anIdleSubjectAsksForNothing() {
    LeaseSizing.Want want = LeaseSizing.want(LeasePolicy.auto(TTL), ROOMY, 1, 500, 60_000 * MS);

    assertThat(want).isEqualTo(LeaseSizing.Want.NOTHING);
  }

  @Test
  void aLoneFirstCallAsksForAtMostSixteenTimesItself() {
    LeaseSizing.Want want = LeaseSizing.want(LeasePolicy.auto(TTL), ROOMY, 1, 500, 0);

    assertThat(want).isEqualTo(new LeaseSizing.Want(16, 8_000));
  }

  @Test
  void autoNeverAsksForMoreThanOneTtlOfRefill() {
    // 6,000 requests per minute refill 20 in 200 ms, whatever the demand
    Limits limits = Limits.of(Limit.requests(6_000, Duration.ofMinutes(1)),
        Limit.tokens(6_000_000_000L, Duration.ofMinutes(1)));

    LeaseSizing.Want want = LeaseSizing.want(LeasePolicy.auto(TTL), limits, 1_000, 500_000, 20 * MS);

    assertThat(want).isEqualTo(new LeaseSizing.Want(20, 10_000));
  }

  @Test
  void theRefillCapIsTheFastestLimitsOfEachDimension() {
    // tokens: 60,000 per minute refill 200 in 200 ms; the per-day limit only 2, and is not the cap
    Limits limits = Limits.of(Limit.tokens(60_000, Duration.ofMinutes(1)),
        Limit.tokens(1_000_000, Duration.ofDays(1)));

    LeaseSizing.Want want = LeaseSizing.want(LeasePolicy.auto(TTL), limits, 100, 10_000, 10 * MS);

    assertThat(want).isEqualTo(new LeaseSizing.Want(0, 200));
  }

  @Test
  void aFixedSizeAsksForThatManyCallsAtTheTokensPerCallSeen() {
    LeaseSizing.Want want = LeaseSizing.want(LeasePolicy.ofCalls(50, TTL), ROOMY, 4, 2_000, 1 * MS);

    assertThat(want).isEqualTo(new LeaseSizing.Want(50, 25_000));
  }

  @Test
  void aDimensionWithoutLimitsIsNotAskedFor() {
    Limits requestsOnly = Limits.of(Limit.requests(6_000_000, Duration.ofMinutes(1)));

    LeaseSizing.Want want = LeaseSizing.want(LeasePolicy.auto(TTL), requestsOnly, 100, 50_000,
        50 * MS);

    assertThat(want).isEqualTo(new LeaseSizing.Want(400, 0));
  }
}
