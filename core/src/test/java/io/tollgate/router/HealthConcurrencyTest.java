package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Many threads recording at once lose nothing. */
class HealthConcurrencyTest {

  private static final int THREADS = 4;
  private static final int CALLS = 5_000;

  @Test
  void countsStayExactUnderConcurrentRecordingAndRanking() throws Exception {
    SteppedClock clock = new SteppedClock(); // standing still: every observation weighs exactly 1
    HealthBoard board = HealthBoard.of(List.of("a", "b"), HealthConfig.ofDefaults(), clock);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        work.add(pool.submit(() -> {
          start.await();
          ProviderHealth a = board.health("a");
          for (int i = 0; i < CALLS; i++) {
            a.recordSuccess(Duration.ofMillis(128));
            a.recordFailure();
            a.recordQuota(QuotaSource.PROVIDER, 0.5);
          }
          return null;
        }));
      }
      work.add(pool.submit(() -> {
        start.await();
        for (int i = 0; i < CALLS; i++) {
          assertThat(board.rank(List.of("a", "b"))).contains("b");
        }
        return null;
      }));
      start.countDown();
      for (Future<?> f : work) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    HealthSnapshot a = board.health("a").snapshot();
    assertThat(a.successes()).isEqualTo(THREADS * CALLS);
    assertThat(a.failures()).isEqualTo(THREADS * CALLS);
    assertThat(a.p99()).contains(Duration.ofMillis(128));
    assertThat(a.quotaRatio()).isEqualTo(0.5);
  }
}
