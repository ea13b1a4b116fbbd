package io.tollgate.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.ForwardingRateLimiter;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.telemetry.Telemetry;
import io.tollgate.testkit.redis.RedisServer;
import jakarta.servlet.FilterChain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A client rotating a million random tenant ids through {@link TollgateFilter#doFilter}, called
 * in-process (a container would take minutes; on Redis, 200 000): the filter tracks at most {@code max-tracked} of
 * them on their own, charges the rest to one overflow bucket, and so admits exactly
 * {@code max-tracked} × the limit + the overflow's limit; Redis holds a key per tracked id and
 * the overflow's; with {@code known-only}, none is admitted.
 */
class TenantFloodTest {

  private static final int IDS = 1_000_000;
  /**
   * On Redis every request, refused ones included, is a round trip (some 30 µs on loopback here), so a
   * million would take most of a minute; past the cap the bound on keys no longer depends on how many.
   */
  private static final int IDS_ON_REDIS = 200_000;
  private static final int MAX_TRACKED = 1_000;
  private static final int THREADS = 4;

  private static TollgateConfig config(String redis, String more) {
    return TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml("""
        tollgate:
        %s
          tenants:
            header: X-Tenant-Id
            max-tracked: %d
            limits:
              requests-per-hour: 1
        %s""".formatted(redis.indent(2), MAX_TRACKED, more.indent(4)));
  }

  /** What the flood got: how many requests the app served, and how each was answered. */
  private record Outcome(int admitted, Map<Integer, Long> statuses) {}

  /** {@code ids} requests, each with a tenant id of its own (random, seeded), on {@link #THREADS} threads. */
  private static Outcome flood(TollgateFilter filter, int ids) throws Exception {
    AtomicInteger admitted = new AtomicInteger();
    FilterChain app = (request, response) -> admitted.incrementAndGet();
    Map<Integer, AtomicLong> statuses = new java.util.concurrent.ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        SplittableRandom random = new SplittableRandom(42 + t);
        int thread = t;
        work.add(pool.submit(() -> {
          for (int i = 0; i < ids / THREADS; i++) {
            // distinct by construction, random in appearance: what a client rotating ids sends
            String tenant = Long.toHexString(random.nextLong()) + "-" + thread + "-" + i;
            CheapExchange exchange = new CheapExchange(tenant);
            filter.doFilter(exchange.request, exchange.response, app);
            statuses.computeIfAbsent(exchange.status(), s -> new AtomicLong()).incrementAndGet();
          }
          return null;
        }));
      }
      for (Future<?> f : work) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Map<Integer, Long> counted = new java.util.TreeMap<>();
    statuses.forEach((status, count) -> counted.put(status, count.get()));
    return new Outcome(admitted.get(), counted);
  }

  private static TollgateFilter started(TollgateFilter filter) throws Exception {
    filter.init(null);
    return filter;
  }

  @Test
  void inMemoryTheTableStaysAtTheCapAndTheOverflowRefusesOnceSpent() throws Exception {
    SubjectsSeen limiter = new SubjectsSeen(RateLimiter.inMemory());
    TollgateFilter filter = started(TollgateFilter.builder(config("", "")).limiter(limiter)
        .telemetry(Telemetry.noop()).build());

    Outcome outcome = flood(filter, IDS);

    assertThat(outcome.admitted()).as("one each for %d tracked ids, one for the overflow", MAX_TRACKED)
        .isEqualTo(MAX_TRACKED + 1);
    assertThat(outcome.statuses()).containsExactly(
        Map.entry(200, (long) MAX_TRACKED + 1), Map.entry(429, (long) IDS - MAX_TRACKED - 1));
    assertThat(filter.trackedTenants()).isEqualTo(MAX_TRACKED);
    assertThat(limiter.size()).as("the tracked ids and the overflow").isEqualTo(MAX_TRACKED + 1);
    filter.destroy();
  }

  @Test
  void onRedisTheKeysStayWithinTheTrackedIdsAndTheOverflow() throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      TollgateFilter filter = started(TollgateFilter.builder(config("redis: { url: \"" + redis.uri() + "\", timeout: 10s }", ""))
          .telemetry(Telemetry.noop()).build());

      Outcome outcome = flood(filter, IDS_ON_REDIS);
      filter.destroy();

      assertThat(outcome.admitted()).isEqualTo(MAX_TRACKED + 1);
      assertThat(outcome.statuses()).containsExactly(
          Map.entry(200, (long) MAX_TRACKED + 1), Map.entry(429, (long) IDS_ON_REDIS - MAX_TRACKED - 1));
      try (Jedis jedis = redis.jedis()) {
        // per JVM and direction: a state key per tracked id, the overflow's, and a record per open reservation (none)
        assertThat(FilterContract.limiterKeys(jedis)).hasSize(MAX_TRACKED + 1);
        assertThat(jedis.exists("tg:{inbound:~overflow}:s")).isTrue();
      }
    }
  }

  @Test
  void withKnownOnlyNoRotatedIdIsAdmittedNorTracked() throws Exception {
    SubjectsSeen limiter = new SubjectsSeen(RateLimiter.inMemory());
    TollgateFilter filter = started(TollgateFilter.builder(
            config("", "known-only: true\noverrides:\n  premium: { requests-per-hour: 5 }\n"))
        .limiter(limiter).telemetry(Telemetry.noop()).build());

    Outcome outcome = flood(filter, IDS);

    assertThat(outcome.admitted()).isZero();
    assertThat(outcome.statuses()).containsExactly(Map.entry(403, (long) IDS));
    assertThat(filter.trackedTenants()).isZero();
    assertThat(limiter.size()).isZero();
    filter.destroy();
  }

  /** The subjects that reached the in-memory limiter: each is a cell of its table. */
  private static final class SubjectsSeen extends ForwardingRateLimiter {
    private final Set<Subject> seen = ConcurrentHashMap.newKeySet();

    SubjectsSeen(RateLimiter delegate) {
      super(delegate);
    }

    @Override
    public Decision reserve(Subject subject, Limits limits, long requests, long tokens) {
      seen.add(subject);
      return super.reserve(subject, limits, requests, tokens);
    }

    int size() {
      return seen.size();
    }
  }
}
