package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.BreakerConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * A breaker changed by many threads at once hands its listeners every transition once, in the order
 * the transitions happened: each one starts where the one before it ended, and the last one ends in
 * the state the breaker reports. (Transitions are made under the breaker's lock but delivered
 * outside it; delivering each thread's own batch as it left the lock could swap two of them.)
 */
class BreakerTransitionOrderTest {

  private static final int THREADS = 8;
  /** Transitions to drive it through: many cycles of closed, open, half-open. */
  private static final int TRANSITIONS = 600;

  @Test
  void listenersSeeEveryTransitionInTheOrderItHappenedWhileManyThreadsDriveTheBreaker() throws Exception {
    // one failure opens it for a millisecond, then a probe: it goes round its states all the time
    BreakerConfig config = BreakerConfig.builder().failures(1).openFor(Duration.ofMillis(1))
        .maxOpenFor(Duration.ofMillis(1)).build();
    List<BreakerTransition> seen = new ArrayList<>();
    ProviderBreakers breakers = ProviderBreakers.create(config, Optional.empty(), Clock.systemUTC())
        .onStateTransition(transition -> {
          synchronized (seen) {
            seen.add(transition);
          }
        });
    ProviderBreaker breaker = breakers.breaker("openai");
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> drivers = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      for (int i = 0; i < THREADS; i++) {
        drivers.add(pool.submit(() -> drive(breaker, start, seen, deadline)));
      }
      start.countDown();
      for (Future<?> driver : drivers) {
        driver.get();
      }
      BreakerState last = breaker.state();

      List<BreakerTransition> transitions;
      synchronized (seen) {
        transitions = List.copyOf(seen);
      }
      assertThat(transitions.size()).as("transitions made").isGreaterThanOrEqualTo(TRANSITIONS);
      assertThat(transitions.get(0).from()).isEqualTo(BreakerState.CLOSED);
      for (int i = 1; i < transitions.size(); i++) {
        assertThat(transitions.get(i).from()).as("transition %d of %s", i, transitions.size())
            .isEqualTo(transitions.get(i - 1).to());
      }
      assertThat(transitions.get(transitions.size() - 1).to()).isEqualTo(last);
    } finally {
      pool.shutdownNow();
      breakers.close();
    }
  }

  /** Calls the breaker as a client would until {@link #TRANSITIONS} transitions have been seen. */
  private static Void drive(ProviderBreaker breaker, CountDownLatch start, List<BreakerTransition> seen,
      long deadline) throws InterruptedException {
    start.await();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (size(seen) < TRANSITIONS && System.nanoTime() < deadline) {
      if (!breaker.tryAcquirePermission()) {
        breaker.state();
      } else if (random.nextInt(3) == 0) {
        breaker.onSuccess(Duration.ofMillis(5));
      } else {
        breaker.onFailure(FailureKind.SERVER_ERROR);
      }
    }
    return null;
  }

  private static int size(List<BreakerTransition> seen) {
    synchronized (seen) {
      return seen.size();
    }
  }
}
