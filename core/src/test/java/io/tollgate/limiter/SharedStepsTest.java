package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Reserves of many threads share calls of the script on a standalone Redis: fewer commands for
 * Redis than decisions, and every decision as exact as one at a time.
 */
class SharedStepsTest {

  private static final int THREADS = 16;
  private static final int TRIES_PER_THREAD = 250;

  private static RedisServer server;

  @BeforeAll
  static void start() {
    server = RedisServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void sixteenThreadsShareRoundTripsAndAdmitExactlyTheCapacity() throws Exception {
    Subject subject = Subject.of("tenant", "shared");
    Limits limits = Limits.of(Limit.requests(1000, Duration.ofDays(1)),
        Limit.tokens(1_000_000, Duration.ofDays(1)));
    try (RateLimiter limiter = RateLimiter.redisOwning(RedisConnection.standalone(server.uri())
            .timeout(Duration.ofSeconds(5)).poolSize(THREADS).build(), Duration.ofMinutes(1));
        Jedis jedis = server.jedis()) {
      limiter.reserve(subject, limits, 1, 1); // connects and caches the script
      long callsBefore = evalshaCalls(jedis);

      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Integer>> admitted = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        admitted.add(pool.submit(() -> {
          go.await();
          int allowed = 0;
          for (int i = 0; i < TRIES_PER_THREAD; i++) {
            allowed += limiter.reserve(subject, limits, 1, 10).allowed() ? 1 : 0;
          }
          return allowed;
        }));
      }
      go.countDown();
      int total = 0;
      for (Future<Integer> each : admitted) {
        total += each.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();

      long calls = evalshaCalls(jedis) - callsBefore;
      assertThat(total).isEqualTo(999); // 1000 less the first reserve
      // two steps or more per call of the script on average, each a decision
      assertThat(calls).isPositive().isLessThan(THREADS * TRIES_PER_THREAD / 2);
    }
  }

  private static long evalshaCalls(Jedis jedis) {
    return jedis.info("commandstats").lines()
        .filter(line -> line.startsWith("cmdstat_evalsha:"))
        .mapToLong(line -> Long.parseLong(line.replaceAll("^cmdstat_evalsha:calls=(\\d+),.*", "$1")))
        .sum();
  }
}
