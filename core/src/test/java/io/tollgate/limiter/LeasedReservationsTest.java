package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Leases on a real Redis: what one script call takes, what is served without Redis, what goes back
 * and when, and settle and release of leased reservations. Limits use a window of a year, so that
 * refill during a test never changes a count, and a fixed lease size (an automatic one is capped by
 * refill, which a year's window makes tiny; {@link LeaseSizingTest} covers it).
 */
class LeasedReservationsTest {

  private static final Duration YEAR = Duration.ofDays(365);
  private static final Duration LONG_TTL = Duration.ofMinutes(1);

  private static RedisServer server;
  private static RedisConnection client;
  private static Jedis jedis;
  private RedisRateLimiter limiter;

  @BeforeAll
  static void start() {
    server = RedisServer.start();
    client = RedisConnection.standalone(server.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(8).build();
    jedis = server.jedis();
  }

  @AfterAll
  static void stop() {
    jedis.close();
    client.close();
    server.close();
  }

  @BeforeEach
  void open() {
    server.flushAll();
    limiter = RedisLimiters.using(client);
  }

  @AfterEach
  void close() {
    limiter.close();
  }

  private static Limits limits(long requests, long tokens, LeasePolicy leases) {
    return Limits.of(Limit.requests(requests, YEAR), Limit.tokens(tokens, YEAR)).withLeases(leases);
  }

  /** What the shared bucket holds now, in units of {@code limit}. */
  private static long shared(Subject subject, Limit limit) {
    String level = jedis.hget(RedisKeys.stateKey(subject), limit.stateField());
    return Math.floorDiv(Long.parseLong(level), limit.windowTicks());
  }

  /** Script runs since the last CONFIG RESETSTAT: EVALSHA, and EVAL after a NOSCRIPT. */
  private static long scriptCalls() {
    long calls = 0;
    for (String line : jedis.info("commandstats").split("\r?\n")) {
      if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
        calls += Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"));
      }
    }
    return calls;
  }

  @Test
  void oneScriptCallTakesTheCallAndALeaseThenCallsAreServedWithoutRedis() {
    Subject subject = Subject.of("tenant", "hot");
    Limits limits = limits(100, 100_000, LeasePolicy.ofCalls(10, LONG_TTL));
    jedis.configResetStat();

    Decision first = limiter.reserve(subject, limits, 1, 500);

    assertThat(first.allowed()).isTrue();
    assertThat(first.reservation().orElseThrow().leased()).isTrue();
    assertThat(scriptCalls()).isEqualTo(1);
    assertThat(shared(subject, limits.all().get(0))).isEqualTo(100 - 1 - 10);
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(100_000 - 500 - 5_000);
    // what this JVM could still take: the shared bucket's part and the lease's
    assertThat(first.remainingRequests()).isEqualTo(99);
    assertThat(first.remainingTokens()).isEqualTo(99_500);

    for (int i = 0; i < 10; i++) {
      assertThat(limiter.reserve(subject, limits, 1, 500).allowed()).isTrue();
    }
    assertThat(scriptCalls()).isEqualTo(1);

    limiter.reserve(subject, limits, 1, 500);
    assertThat(scriptCalls()).isEqualTo(2);
    assertThat(shared(subject, limits.all().get(0))).isEqualTo(100 - 12 - 10);
  }

  @Test
  void theLeaseThreadHasTollgatesClassLoaderNotThatOfTheThreadTakingTheFirstLease() throws Exception {
    Subject subject = Subject.of("tenant", "web-app");
    Limits limits = limits(100, 100_000, LeasePolicy.ofCalls(10, LONG_TTL));
    try (URLClassLoader webApp = new URLClassLoader(new URL[0], null)) {
      Thread request = new Thread(() -> limiter.reserve(subject, limits, 1, 500), "a web app's request");
      request.setContextClassLoader(webApp);
      request.start();
      request.join();

      assertThat(Thread.getAllStackTraces().keySet())
          .filteredOn(thread -> thread.getName().equals("tollgate-leases"))
          .as("a container must not find its app's loader held by the lease thread")
          .isNotEmpty()
          .noneMatch(thread -> thread.getContextClassLoader() == webApp);
    }
  }

  @Test
  void leasesShrinkNearTheLimitAndStopWhenTheBucketIsNearlyEmpty() {
    Subject subject = Subject.of("tenant", "nearly-full");
    Limits plain = Limits.of(Limit.requests(20, YEAR), Limit.tokens(1_000_000, YEAR));
    Limits leased = plain.withLeases(LeasePolicy.ofCalls(10, LONG_TTL));
    for (int i = 0; i < 13; i++) {
      limiter.reserve(subject, plain, 1, 1);
    }
    Limit requests = plain.all().get(0);
    jedis.configResetStat();

    // 7 left: the call takes 1, the lease half of the 6 it leaves
    assertThat(limiter.reserve(subject, leased, 1, 1).allowed()).isTrue();
    assertThat(shared(subject, requests)).isEqualTo(3);
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.reserve(subject, leased, 1, 1).allowed()).isTrue();
    }
    assertThat(scriptCalls()).isEqualTo(1);
    // 3 left: the call takes 1, the lease 1 of the 2 it leaves
    assertThat(limiter.reserve(subject, leased, 1, 1).allowed()).isTrue();
    assertThat(shared(subject, requests)).isEqualTo(1);
    assertThat(limiter.reserve(subject, leased, 1, 1).allowed()).isTrue();
    // 1 left: the call takes it and no lease is left to take
    assertThat(limiter.reserve(subject, leased, 1, 1).allowed()).isTrue();
    assertThat(shared(subject, requests)).isZero();
    Decision denied = limiter.reserve(subject, leased, 1, 1);

    assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(denied.retryAfter()).isPositive();
    assertThat(scriptCalls()).isEqualTo(4);
  }

  @Test
  void whatALeaseDidNotSpendGoesBackWhenItExpires() {
    Subject subject = Subject.of("tenant", "expiring");
    Limits limits = limits(100, 100_000, LeasePolicy.ofCalls(10, Duration.ofMillis(100)));

    limiter.reserve(subject, limits, 1, 500);
    limiter.reserve(subject, limits, 1, 500);
    assertThat(shared(subject, limits.all().get(0))).isEqualTo(89);

    pollUntil(Duration.ofSeconds(5), () -> shared(subject, limits.all().get(0)) == 98);
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(99_000);
  }

  @Test
  void closingTheLimiterGivesBackWhatIsLeased() {
    Subject subject = Subject.of("tenant", "closing");
    Limits limits = limits(100, 100_000, LeasePolicy.ofCalls(10, LONG_TTL));

    limiter.reserve(subject, limits, 1, 500);
    limiter.close();

    assertThat(shared(subject, limits.all().get(0))).isEqualTo(99);
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(99_500);
  }

  @Test
  void aLeaseTakenAfterCloseGoesBackAtOnce() {
    Subject subject = Subject.of("tenant", "closed");
    Limits limits = limits(100, 100_000, LeasePolicy.ofCalls(10, LONG_TTL));
    limiter.close();

    assertThat(limiter.reserve(subject, limits, 1, 500).allowed()).isTrue();

    assertThat(shared(subject, limits.all().get(0))).isEqualTo(99);
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(99_500);
  }

  @Test
  void aRefundGoesBackIntoTheOpenLeaseAndServesTheNextCalls() {
    Subject subject = Subject.of("tenant", "refund");
    Limits limits = limits(100, 100_000, LeasePolicy.ofCalls(10, LONG_TTL));

    Reservation reservation = limiter.reserve(subject, limits, 1, 500).reservation().orElseThrow();
    assertThat(limiter.settle(reservation, 200)).isTrue();
    Decision next = limiter.reserve(subject, limits, 1, 500);

    // lease: 5,000 + 300 refunded - 500; shared: 100,000 - 5,500
    assertThat(next.remainingTokens()).isEqualTo(94_500 + 4_800);
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(94_500);
    limiter.close();
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(100_000 - 200 - 500);
  }

  @Test
  void usageBeyondTheEstimateIsPaidFromTheLeaseThenChargedToTheSharedBucketEvenIntoDebt() {
    Subject subject = Subject.of("tenant", "overage");
    Limits limits = limits(100, 1_000, LeasePolicy.ofCalls(1, LONG_TTL));

    Reservation reservation = limiter.reserve(subject, limits, 1, 100).reservation().orElseThrow();
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(800); // 100 for the call, 100 leased

    assertThat(limiter.settle(reservation, 1_500)).isTrue();

    // 1,400 more: 100 from the lease, 1,300 from the bucket
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(-500);
    limiter.close();
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(-500);
    assertThat(shared(subject, limits.all().get(0))).isEqualTo(99);
  }

  @Test
  void aReleaseAfterTheLeaseEndedGoesToTheSharedBucket() {
    Subject subject = Subject.of("tenant", "late-release");
    Limits limits = limits(100, 100_000, LeasePolicy.ofCalls(10, LONG_TTL));

    Reservation reservation = limiter.reserve(subject, limits, 1, 500).reservation().orElseThrow();
    limiter.close(); // the lease goes back; the client stays open
    assertThat(shared(subject, limits.all().get(0))).isEqualTo(99);

    assertThat(limiter.release(reservation)).isTrue();

    assertThat(shared(subject, limits.all().get(0))).isEqualTo(100);
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(100_000);
  }

  @Test
  void aLeasedReservationIsSettledOrReleasedOnlyOnce() {
    Subject subject = Subject.of("tenant", "once");
    Limits limits = limits(100, 100_000, LeasePolicy.ofCalls(10, LONG_TTL));

    Reservation reservation = limiter.reserve(subject, limits, 1, 500).reservation().orElseThrow();

    assertThat(limiter.settle(reservation, 100)).isTrue();
    assertThat(limiter.settle(reservation, 100)).isFalse();
    assertThat(limiter.release(reservation)).isFalse();
    limiter.close();
    assertThat(shared(subject, limits.all().get(1))).isEqualTo(100_000 - 100);
  }

  @Test
  void aSlidingWindowLimitIsLeasedAndGivenBackToTheWindowCharged() {
    Subject subject = Subject.of("tenant", "sliding");
    Limit requests = Limit.of(Dimension.REQUESTS, 100, YEAR, Algorithm.SLIDING_WINDOW);
    Limits limits = Limits.of(requests).withLeases(LeasePolicy.ofCalls(10, LONG_TTL));

    Decision first = limiter.reserve(subject, limits, 1, 0);
    String counted = jedis.hget(RedisKeys.stateKey(subject), requests.stateField());
    limiter.close();

    assertThat(first.remainingRequests()).isEqualTo(99);
    assertThat(counted).isEqualTo("11");
    assertThat(jedis.hget(RedisKeys.stateKey(subject), requests.stateField()))
        .isEqualTo("1");
  }

  @Test
  void aCostNoLimitCanHoldNeverFitsWithoutALease() {
    Limits limits = limits(100, 1_000, LeasePolicy.ofCalls(10, LONG_TTL));

    Decision decision = limiter.reserve(Subject.of("tenant", "huge"), limits, 1, 5_000);

    assertThat(decision.outcome()).isEqualTo(Outcome.NEVER_FITS);
  }

  private static void pollUntil(Duration limit, java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("not within " + limit);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
