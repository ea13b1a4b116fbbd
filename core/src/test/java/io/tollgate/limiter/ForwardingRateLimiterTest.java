package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForwardingRateLimiterTest {

  private static final Limits LIMITS = Limits.of(Limit.requests(2, Duration.ofHours(1)),
      Limit.tokens(1000, Duration.ofHours(1)));

  @Test
  void everyOperationReachesTheDelegateAndAnOverrideDecoratesOnlyItself() {
    InMemoryRateLimiter memory = InMemoryRateLimiter.create();
    int[] joint = new int[1];
    RateLimiter counting = new ForwardingRateLimiter(memory) {
      @Override
      public JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
        joint[0]++;
        return delegate().reserveAll(charges, requests, tokens);
      }
    };
    Subject acme = Subject.of("tenant", "acme");

    JointDecision first = counting.reserveAll(List.of(new Charge(acme, LIMITS)), 1, 100);
    counting.settleAll(first, 40);
    Decision second = counting.reserve(acme, LIMITS, 1, 100);
    assertThat(counting.release(second.reservation().orElseThrow())).isTrue();

    Decision probe = memory.reserve(acme, LIMITS, 1, 0);
    assertThat(joint[0]).isEqualTo(1);
    assertThat(probe.remainingRequests()).isZero(); // the first, settled; the released one back; this one
    assertThat(probe.remainingTokens()).isEqualTo(960);
  }
}
