package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.LimiterHealth;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisClientAccess;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import io.tollgate.testkit.redis.UnansweringNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;

/**
 * Calls while the Redis client is being made, and calls that find every pooled connection busy:
 * each is decided by the failure policy within about {@code redis.timeout}, and a busy pool is not
 * an unreachable Redis.
 */
class ConnectingUnderLoadTest {

  private static final Limits LIMITS = Limits.of(Limit.requests(1_000, Duration.ofMinutes(1)));
  private static final Duration TIMEOUT = Duration.ofMillis(250);
  /** Room for scheduling 64 threads on a busy machine; a queue behind the connect costs seconds. */
  private static final Duration MARGIN = Duration.ofMillis(750);
  private static final int CALLERS = 64;

  private static TollgateConfig config(String yaml) {
    return TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml(yaml);
  }

  @Test
  void firstCallsAgainstUnansweringClusterSeedsAreDecidedOpenWithinTheTimeout() throws Exception {
    List<Timed> decided = firstCallsAgainstUnansweringSeeds("fail-open");

    assertThat(decided).hasSize(CALLERS).allSatisfy(timed -> {
      assertThat(timed.decision().degraded()).isTrue();
      assertThat(timed.decision().allowed()).isTrue();
      assertThat(timed.took()).isLessThan(TIMEOUT.plus(MARGIN));
    });
  }

  @Test
  void firstCallsAgainstUnansweringClusterSeedsAreDecidedClosedWithinTheTimeout() throws Exception {
    List<Timed> decided = firstCallsAgainstUnansweringSeeds("fail-closed");

    assertThat(decided).hasSize(CALLERS).allSatisfy(timed -> {
      assertThat(timed.decision().degraded()).isTrue();
      assertThat(timed.decision().allowed()).isFalse();
      assertThat(timed.took()).isLessThan(TIMEOUT.plus(MARGIN));
    });
  }

  @Test
  void aBusyPoolIsDecidedByThePolicyCountedAndNeverMarksRedisDown() {
    try (RedisServer server = RedisServer.start()) {
      TollgateConfig config = config("""
          tollgate:
            redis:
              url: %s
              timeout: %dms
              pool-size: 1
              on-failure: fail-closed
          """.formatted(server.uri(), TIMEOUT.toMillis()));
      try (RedisConnection connection = config.redis().orElseThrow().newConnection();
          RateLimiter limiter = Limiters.create(config.redis(), connection)) {
        LimiterHealth resilient = (LimiterHealth) limiter;
        Subject subject = Subject.of("tenant", "busy-pool");
        UnifiedJedis client = RedisClientAccess.client(connection);

        List<Decision> whileBusy = new ArrayList<>();
        try (AbstractPipeline holdsTheOnlyConnection = client.pipelined()) {
          for (int i = 0; i < 5; i++) {
            whileBusy.add(limiter.reserve(subject, LIMITS, 1, 0));
          }
          assertThat(resilient.isDegraded()).isFalse();
        }
        Decision afterwards = limiter.reserve(subject, LIMITS, 1, 0);

        assertThat(whileBusy).allSatisfy(decision -> {
          assertThat(decision.degraded()).isTrue();
          assertThat(decision.allowed()).isFalse(); // fail-closed decides each one
        });
        assertThat(resilient.poolExhaustions()).isEqualTo(5);
        assertThat(afterwards.degraded()).isFalse();
        assertThat(afterwards.allowed()).isTrue();
        assertThat(afterwards.remainingRequests()).isEqualTo(999);
      }
    }
  }

  private List<Timed> firstCallsAgainstUnansweringSeeds(String onFailure) throws Exception {
    try (UnansweringNode a = UnansweringNode.start();
        UnansweringNode b = UnansweringNode.start();
        UnansweringNode c = UnansweringNode.start()) {
      TollgateConfig config = config("""
          tollgate:
            redis:
              cluster: [%s, %s, %s]
              timeout: %dms
              on-failure: %s
          """.formatted(a.address(), b.address(), c.address(), TIMEOUT.toMillis(), onFailure));
      ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
      try (RateLimiter limiter = Limiters.create(config.redis())) {
        CountDownLatch ready = new CountDownLatch(CALLERS);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Timed>> calls = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
          Subject subject = Subject.of("tenant", "caller-" + i);
          calls.add(callers.submit(() -> {
            ready.countDown();
            go.await();
            long start = System.nanoTime();
            Decision decision = limiter.reserve(subject, LIMITS, 1, 0);
            return new Timed(decision, Duration.ofNanos(System.nanoTime() - start));
          }));
        }
        ready.await();
        go.countDown();
        List<Timed> decided = new ArrayList<>();
        for (Future<Timed> call : calls) {
          decided.add(call.get());
        }
        awaitAConnection(a); // the seeds are tried, not skipped
        return decided;
      } finally {
        callers.shutdownNow();
      }
    }
  }

  private static void awaitAConnection(UnansweringNode node) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (node.connections() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(node.connections()).isPositive();
  }

  private record Timed(Decision decision, Duration took) {}
}
