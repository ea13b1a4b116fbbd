package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * {@link RateLimiter#settleLater} on a real Redis, through {@link ResilientRateLimiter} as a
 * configured gate has it: applied by the settle thread, drained on close, dropped as a settle is
 * when Redis cannot take it, never failing the caller.
 */
class SettleLaterTest {

  private static final Duration YEAR = Duration.ofDays(365);
  private static final Duration LONG = Duration.ofSeconds(30);
  private static final Limits LIMITS = Limits.of(Limit.tokens(1_000_000, YEAR));

  private RedisServer server;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @BeforeEach
  void start() {
    server = RedisServer.start();
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable closeable : closeables) {
      closeable.close();
    }
    server.close();
  }

  private ResilientRateLimiter limiter(Duration drainOnClose) {
    RedisRateLimiter shared = RedisLimiters.owning(RedisConnection.standalone(server.uri())
        .timeout(Duration.ofMillis(100)).poolSize(8).build(), Duration.ofMinutes(10));
    ResilientRateLimiter limiter = new ResilientRateLimiter(shared, ResilienceConfig.custom()
        .probeAfter(Duration.ofMillis(1))
        .drainOnClose(drainOnClose)
        .build());
    closeables.add(limiter);
    return limiter;
  }

  /** What a subject has left, read by a limiter of its own, which costs the subject 1 token. */
  private long remainingTokens(Subject subject) {
    try (RedisRateLimiter reader = RedisLimiters.owning(RedisConnection.standalone(server.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(1).build(), Duration.ofMinutes(10))) {
      return reader.reserve(subject, LIMITS, 0, 1).remainingTokens();
    }
  }

  @Test
  void settlesHandedOverAreAppliedExactlyOnceWhenSettled() {
    ResilientRateLimiter limiter = limiter(LONG);
    Subject subject = Subject.of("tenant", "later");
    List<Reservation> reservations = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      reservations.add(limiter.reserve(subject, LIMITS, 100).reservation().orElseThrow());
    }

    for (Reservation reservation : reservations) {
      limiter.settleLater(reservation, 10);
      limiter.settleLater(reservation, 1_000); // a duplicate: the record is gone, nothing changes
    }

    assertThat(limiter.awaitSettled(LONG)).isTrue();
    assertThat(remainingTokens(subject)).isEqualTo(1_000_000 - 300 * 10 - 1);
  }

  @Test
  void closeAppliesTheSettlesStillQueued() {
    ResilientRateLimiter limiter = limiter(LONG);
    Subject subject = Subject.of("tenant", "closing");
    List<Reservation> reservations = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      reservations.add(limiter.reserve(subject, LIMITS, 100).reservation().orElseThrow());
    }

    reservations.forEach(reservation -> limiter.settleLater(reservation, 10));
    limiter.close();

    assertThat(remainingTokens(subject)).isEqualTo(1_000_000 - 300 * 10 - 1);
  }

  @Test
  void aPipelineThatMeetsAnEmptyScriptCacheStillSettlesEach() {
    ResilientRateLimiter limiter = limiter(LONG);
    Subject subject = Subject.of("tenant", "noscript");
    List<Settlement> settlements = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      settlements.add(new Settlement(
          limiter.reserve(subject, LIMITS, 100).reservation().orElseThrow(), 10));
    }
    server.flushScripts();

    assertThat(limiter.settleEach(settlements)).isEqualTo(3);
    assertThat(remainingTokens(subject)).isEqualTo(1_000_000 - 3 * 10 - 1);
  }

  @Test
  void aSettleRedisRefusesIsDroppedAndItsEstimateStaysCharged() {
    ResilientRateLimiter limiter = limiter(LONG);
    Subject subject = Subject.of("tenant", "refused");
    Reservation one = limiter.reserve(subject, LIMITS, 800).reservation().orElseThrow();
    Reservation two = limiter.reserve(subject, LIMITS, 800).reservation().orElseThrow();
    Reservation three = limiter.reserve(subject, LIMITS, 800).reservation().orElseThrow();
    try (Jedis admin = server.jedis()) {
      // a primary without its replicas refuses every write, the script's first one included
      admin.configSet("min-replicas-to-write", "1");

      limiter.settleLater(one, 100);
      assertThat(limiter.awaitSettled(LONG)).isTrue();
      int pipelined = limiter.settleEach(List.of(new Settlement(two, 100),
          new Settlement(three, 100)));

      admin.configSet("min-replicas-to-write", "0");
      assertThat(pipelined).isZero();
    }
    assertThat(remainingTokens(subject)).isEqualTo(1_000_000 - 3 * 800 - 1);
  }

  @Test
  void aStoppedRedisFailsNoCallerAndSettlesApplyAgainOnceItIsBack() throws Exception {
    ResilientRateLimiter limiter = limiter(LONG);
    Subject subject = Subject.of("tenant", "stopped");
    List<Reservation> reservations = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      reservations.add(limiter.reserve(subject, LIMITS, 100).reservation().orElseThrow());
    }

    server.stop();
    reservations.forEach(reservation -> limiter.settleLater(reservation, 10));
    assertThat(limiter.awaitSettled(LONG)).isTrue();

    server.restart(); // a fresh Redis: what was charged before is gone
    long restarted = System.nanoTime();
    Decision decision;
    do {
      decision = limiter.reserve(subject, LIMITS, 100);
      Thread.sleep(10);
    } while (decision.degraded() && System.nanoTime() - restarted < TimeUnit.SECONDS.toNanos(10));
    assertThat(decision.degraded()).isFalse();
    limiter.settleLater(decision.reservation().orElseThrow(), 30);

    assertThat(limiter.awaitSettled(LONG)).isTrue();
    assertThat(remainingTokens(subject)).isEqualTo(1_000_000 - 30 - 1);
  }

  @Test
  void aSettleTheQueueRefusesIsAppliedOnTheCallersThread() {
    RedisRateLimiter limiter = RedisLimiters.owning(RedisConnection.standalone(server.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(8).build(), Duration.ofMinutes(10));
    closeables.add(limiter);
    Subject subject = Subject.of("tenant", "inline");
    Reservation reservation = limiter.reserve(subject, LIMITS, 100).reservation().orElseThrow();
    RedisConnection client = RedisConnection.standalone(server.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(8).build();
    closeables.add(client);
    ResilientRateLimiter closed =
        new ResilientRateLimiter(RedisLimiters.using(client), ResilienceConfig.ofDefaults());
    closed.close(); // its queue refuses from now on; the client it was given stays open

    closed.settleLater(reservation, 10);

    assertThat(remainingTokens(subject)).isEqualTo(1_000_000 - 10 - 1);
  }
}
