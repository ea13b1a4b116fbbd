package io.tollgate.bench.limiter;

import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * The limiter benchmark, one command: starts a throw-away redis-server (testkit; nothing saved),
 * measures Redis memory per subject, sets every contender up, then runs rounds: each round
 * measures, at each concurrency in turn, every contender back to back. Prints markdown tables of
 * the medians on stdout, progress on stderr. Options: {@link BenchOptions}.
 *
 * <pre>
 * mvn -B -ntp -q -Pbench -Dmaven.test.skip=true package
 * java -cp bench/target/benchmarks.jar io.tollgate.bench.limiter.LimiterBench
 * </pre>
 */
public final class LimiterBench {

  /**
   * Generous, so that a stall shows up as latency rather than as errors; the production default
   * (100 ms) would turn the longest tail into failures and hide it.
   */
  private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(5);

  private LimiterBench() {}

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    long start = System.nanoTime();
    // One pooled connection per thread at the highest concurrency, as redis-benchmark's -c has:
    // Tollgate's own connection, and a Jedis client alike for the other contenders.
    try (RedisServer server = RedisServer.start();
        RedisConnection tollgate = RedisConnection.standalone(server.uri())
            .timeout(CLIENT_TIMEOUT).poolSize(options.maxThreads()).build();
        UnifiedJedis redis = pooledJedis(server, CLIENT_TIMEOUT, options.maxThreads())) {
      Machine machine = Machine.describe(server);
      progress("redis-server %s on port %d; %s", machine.redis(), server.port(), machine.jdk());
      List<MemoryPerSubject.Row> memory = MemoryPerSubject.measure(tollgate, redis);
      server.flushAll();

      List<Contender> contenders = contenders(server, tollgate, redis, options);
      try {
        Results results = measure(contenders, options);
        System.out.println(Report.render(machine, options, results, memory,
            Targets.check(results, memory)));
      } finally {
        contenders.forEach(Contender::close);
      }
    }
    progress("done in %.1f min", (System.nanoTime() - start) / 60e9);
  }

  /** Every contender, its state set up (the sorted-set logs take a while to fill). */
  private static List<Contender> contenders(RedisServer server, RedisConnection tollgate,
      UnifiedJedis redis, BenchOptions options) {
    List<Contender> contenders = new ArrayList<>();
    if (options.runs("tollgate")) {
      contenders.add(ClosedLoop.driving(TollgateScenario.reserve(tollgate), server));
      contenders.add(ClosedLoop.driving(TollgateScenario.reserveAndSettle(tollgate), server));
      contenders.add(ClosedLoop.driving(new UnpooledTollgateScenario(server), server));
    }
    if (options.runs("joint")) {
      contenders.add(ClosedLoop.driving(JointScenario.pipelined(tollgate), server));
      contenders.add(ClosedLoop.driving(JointScenario.inTurn(tollgate), server));
    }
    if (options.runs("ceiling")) {
      contenders.add(new RedisBenchmarkCeiling(server));
    }
    if (options.runs("anchor")) {
      contenders.add(ClosedLoop.driving(new PlainBucketScenario(redis), server));
    }
    if (options.runs("bucket4j")) {
      contenders.add(ClosedLoop.driving(Bucket4jScenario.requestsOnly(redis), server));
      contenders.add(ClosedLoop.driving(Bucket4jScenario.requestsAndTokens(redis), server));
    }
    if (options.runs("leases")) {
      for (boolean settle : new boolean[] {false, true}) {
        for (boolean leases : new boolean[] {false, true}) {
          contenders.add(ClosedLoop.driving(settle
              ? HotSubjectScenario.reserveAndSettle(tollgate, leases)
              : HotSubjectScenario.reserve(tollgate, leases), server));
        }
      }
    }
    if (options.runs("log")) {
      for (int entries : new int[] {100, 1_000, 10_000}) {
        progress("filling the sorted-set logs, %,d entries each", entries);
        contenders.add(ClosedLoop.driving(SlidingLogScenario.withEntries(redis, entries), server));
      }
    }
    return contenders;
  }

  /**
   * A Jedis client over a pool configured as Tollgate's is (docs/limiter.md), for the contenders
   * that are not Tollgate: a wait for a free connection no longer than for Redis itself.
   */
  private static UnifiedJedis pooledJedis(RedisServer server, Duration timeout, int poolSize) {
    int millis = (int) timeout.toMillis();
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(poolSize);
    pool.setMaxIdle(poolSize);
    pool.setMinIdle(0);
    pool.setBlockWhenExhausted(true);
    pool.setMaxWait(timeout);
    pool.setJmxEnabled(false);
    return RedisClient.builder()
        .hostAndPort(server.hostAndPort())
        .clientConfig(DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(millis).socketTimeoutMillis(millis).build())
        .poolConfig(pool)
        .build();
  }

  /**
   * Rounds; in each, every concurrency level in turn and at each level every contender, so that
   * figures compared with each other are measured close together in time.
   */
  private static Results measure(List<Contender> contenders, BenchOptions options)
      throws InterruptedException {
    Results results = new Results();
    Set<String> warmedUp = new HashSet<>();
    for (int round = 1; round <= options.rounds(); round++) {
      for (int concurrency : options.threads()) {
        for (Contender contender : contenders) {
          progress("round %d/%d, %d threads: %s", round, options.rounds(), concurrency,
              contender.name());
          Duration warmup = options.warmupBefore(warmedUp.add(contender.name()));
          results.add(reported(contender.measure(concurrency, warmup, options.measure())));
        }
      }
    }
    return results;
  }

  private static Measurement reported(Measurement m) {
    progress("  %,.0f ops/s, p50 %.0f µs, p99 %.0f µs, p99.9 %.0f µs; cores: redis %.2f, "
            + "client %.2f, other %.2f %s", m.opsPerSecond(), m.p50(), m.p99(), m.p999(),
        m.redisCores(), m.clientCores(), m.otherCores(), m.note());
    return m;
  }

  private static void progress(String format, Object... args) {
    System.err.printf(format + "%n", args);
  }
}
