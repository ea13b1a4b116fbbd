package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Redis misbehaving under load: script cache flushed, server stopped and restarted. */
class RedisFailureTest {

  private static final Duration TIMEOUT = Duration.ofMillis(100);

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

  private RedisRateLimiter redisLimiter() {
    return redisLimiter(TIMEOUT);
  }

  private RedisRateLimiter redisLimiter(Duration timeout) {
    RedisRateLimiter limiter = RedisLimiters.owning(RedisConnection.standalone(server.uri())
        .timeout(timeout).poolSize(16).build(), Duration.ofMinutes(1));
    closeables.add(limiter);
    return limiter;
  }

  @Test
  void scriptFlushEvery300msUnderLoadFailsNoCall() throws Exception {
    // what is tested is NOSCRIPT recovery, not the timeout: a busy CI machine may stall a call
    RedisRateLimiter limiter = redisLimiter(Duration.ofSeconds(2));
    Subject subject = Subject.of("tenant", "flush-load");
    // a year's window: the refill during the test stays below one request
    Limits limits = Limits.of(Limit.requests(1_000_000, Duration.ofDays(365)),
        Limit.tokens(100_000_000, Duration.ofDays(365)));
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger flushes = new AtomicInteger();
    AtomicLong admitted = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(9);
    try {
      Future<?> flusher = pool.submit(() -> {
        while (running.get()) {
          sleep(300);
          server.flushScripts();
          flushes.incrementAndGet();
        }
        return null;
      });
      List<Future<?>> callers = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        callers.add(pool.submit(() -> {
          while (running.get()) {
            Decision decision = limiter.reserve(subject, limits, 10);
            if (decision.allowed()) {
              admitted.incrementAndGet();
            }
          }
          return null;
        }));
      }
      sleep(3_000);
      running.set(false);
      flusher.get();
      for (Future<?> caller : callers) {
        caller.get(); // rethrows any exception a call raised
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(flushes.get()).isGreaterThanOrEqualTo(8);
    Decision after = limiter.reserve(subject, limits, 1, 0);
    assertThat(after.remainingRequests()).isEqualTo(1_000_000 - admitted.get() - 1);
  }

  @Test
  void aJointReservationSentTogetherRecoversFromAScriptFlush() {
    RedisRateLimiter limiter = redisLimiter(Duration.ofSeconds(2));
    Subject tenant = Subject.of("tenant", "joint-flush");
    Subject provider = Subject.of("provider", "joint-flush");
    Limits limits = Limits.of(Limit.requests(10, Duration.ofDays(365)));
    List<Charge> charges = List.of(new Charge(tenant, limits), new Charge(provider, limits));
    assertThat(limiter.reserve(tenant, limits, 1, 0).allowed()).isTrue(); // connected, script cached

    server.flushScripts();
    JointDecision afterFlush = limiter.reserveAll(charges, 1, 0);
    JointDecision cachedAgain = limiter.reserveAll(charges, 1, 0);

    assertThat(limiter.pipelinesReserves(charges, 1, 0)).isTrue();
    assertThat(afterFlush.allowed()).isTrue();
    assertThat(afterFlush.decisions()).extracting(Decision::remainingRequests).containsExactly(8L, 9L);
    assertThat(cachedAgain.decisions()).extracting(Decision::remainingRequests).containsExactly(7L, 8L);
  }

  @Test
  void aJointReservationSentTogetherIsDecidedLocallyForEverySubjectWhileRedisIsDown() {
    RedisRateLimiter redis = redisLimiter();
    ResilientRateLimiter limiter = new ResilientRateLimiter(redis, ResilienceConfig.custom()
        .onFailure(FailurePolicy.FAIL_OPEN)
        .localShare(0.5)
        .build());
    Subject tenant = Subject.of("tenant", "joint-outage");
    Subject provider = Subject.of("provider", "joint-outage");
    Limits limits = Limits.of(Limit.requests(20, Duration.ofDays(1)));
    List<Charge> charges = List.of(new Charge(tenant, limits), new Charge(provider, limits));
    JointDecision shared = limiter.reserveAll(charges, 1, 0);
    assertThat(redis.pipelinesReserves(charges, 1, 0)).isTrue();
    assertThat(shared.degraded()).isFalse();
    assertThat(shared.decisions()).extracting(Decision::remainingRequests).containsExactly(19L, 19L);

    server.stop();
    JointDecision local = limiter.reserveAll(charges, 1, 0);

    // each subject in memory, on half of its limit: 10, one taken
    assertThat(local.allowed()).isTrue();
    assertThat(local.decisions()).allSatisfy(decision -> assertThat(decision.degraded()).isTrue())
        .extracting(Decision::remainingRequests).containsExactly(9L, 9L);
    assertThat(local.reservations()).allSatisfy(reservation ->
        assertThat(reservation.local()).isTrue());
  }

  @Test
  void failOpenDecidesLocallyWithinTheTimeoutAndRecoversAfterRestart() throws Exception {
    ResilientRateLimiter limiter = new ResilientRateLimiter(redisLimiter(), ResilienceConfig.custom()
        .onFailure(FailurePolicy.FAIL_OPEN)
        .localShare(0.5)
        .build());
    Subject subject = Subject.of("tenant", "outage");
    Limits limits = Limits.of(Limit.requests(20, Duration.ofDays(1)));
    assertThat(limiter.reserve(subject, limits, 1, 0).degraded()).isFalse();

    server.stop();
    long slowestNanos = 0;
    int admittedLocally = 0;
    for (int i = 0; i < 30; i++) {
      long start = System.nanoTime();
      Decision decision = limiter.reserve(subject, limits, 1, 0);
      slowestNanos = Math.max(slowestNanos, System.nanoTime() - start);
      assertThat(decision.degraded()).isTrue();
      if (decision.allowed()) {
        admittedLocally++;
      }
    }
    // the local guard holds half of each limit: 10 of 20
    assertThat(admittedLocally).isEqualTo(10);
    assertThat(limiter.isDegraded()).isTrue();
    // a failing call costs at most the timeout (plus scheduling slack); an open breaker none
    assertThat(Duration.ofNanos(slowestNanos)).isLessThan(TIMEOUT.multipliedBy(5));

    server.restart();
    long restarted = System.nanoTime();
    Decision decision;
    do {
      decision = limiter.reserve(subject, limits, 1, 0);
      sleep(10);
    } while (decision.degraded() && System.nanoTime() - restarted < TimeUnit.SECONDS.toNanos(5));

    assertThat(decision.degraded()).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - restarted)).isLessThan(Duration.ofSeconds(1));
    // the restarted Redis kept nothing: the subject starts full again
    assertThat(decision.remainingRequests()).isEqualTo(19);
  }

  @Test
  void failClosedDeniesWhileRedisIsDown() {
    ResilientRateLimiter limiter = new ResilientRateLimiter(redisLimiter(), ResilienceConfig.custom()
        .onFailure(FailurePolicy.FAIL_CLOSED)
        .build());
    Subject subject = Subject.of("tenant", "closed");
    Limits limits = Limits.of(Limit.requests(20, Duration.ofDays(1)));

    server.stop();
    Decision decision = limiter.reserve(subject, limits, 1, 0);

    assertThat(decision.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(decision.degraded()).isTrue();
    assertThat(decision.retryAfter()).isPositive();
  }

  @Test
  void aReservationTakenLocallyIsSettledLocally() {
    ResilientRateLimiter limiter = new ResilientRateLimiter(redisLimiter(), ResilienceConfig.ofDefaults());
    Subject subject = Subject.of("tenant", "local-settle");
    Limits limits = Limits.of(Limit.tokens(1000, Duration.ofDays(1)));
    server.stop();

    Reservation reservation = limiter.reserve(subject, limits, 900).reservation().orElseThrow();

    assertThat(reservation.local()).isTrue();
    assertThat(limiter.settle(reservation, 100)).isTrue();
    assertThat(limiter.reserve(subject, limits, 900).allowed()).isTrue();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
