package io.tollgate.bench.limiter;

import io.tollgate.limiter.RedisClients;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import redis.clients.jedis.UnifiedJedis;

/**
 * The limiter benchmark, one command: starts a throw-away redis-server (testkit; nothing saved),
 * measures Redis memory per subject, then every scenario at every thread count and redis-benchmark's
 * EVALSHA ceiling at the same concurrencies, and prints markdown tables on stdout (progress on
 * stderr). Options: {@link BenchOptions}.
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

  private final RedisServer server;
  private final UnifiedJedis redis;
  private final BenchOptions options;
  private final Attempts attempts;
  private final List<Measurement> results = new ArrayList<>();

  private LimiterBench(RedisServer server, UnifiedJedis redis, BenchOptions options) {
    this.server = server;
    this.redis = redis;
    this.options = options;
    this.attempts = new Attempts(options.retryBudget());
  }

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    // One pooled connection per thread at the highest concurrency, as redis-benchmark's -c has.
    try (RedisServer server = RedisServer.start();
        UnifiedJedis redis = RedisClients.standalone(server.uri(), CLIENT_TIMEOUT,
            options.maxThreads())) {
      Machine machine = Machine.describe(server);
      progress("redis-server %s on port %d; %s", machine.redis(), server.port(), machine.jdk());
      List<MemoryPerSubject.Row> memory = MemoryPerSubject.measure(redis);
      server.flushAll();

      List<Measurement> results = new LimiterBench(server, redis, options).runAll();
      System.out.println(Report.render(machine, options, results, memory,
          Targets.check(results, memory)));
    }
  }

  private List<Measurement> runAll() throws InterruptedException {
    if (options.runs("tollgate")) {
      run(TollgateScenario::reserve);
      run(TollgateScenario::reserveAndSettle);
      run(client -> new UnpooledTollgateScenario(server));
    }
    if (options.runs("ceiling")) {
      for (int connections : options.threads()) {
        progress("redis-benchmark EVALSHA -c %d", connections);
        results.add(attempts.best(() -> reported(
            RedisBenchmarkCeiling.run(server, connections, options.measure()))));
      }
      server.flushAll();
    }
    if (options.runs("bucket4j")) {
      run(Bucket4jScenario::requestsOnly);
      run(Bucket4jScenario::requestsAndTokens);
    }
    if (options.runs("log")) {
      for (int entries : new int[] {100, 1_000, 10_000}) {
        run(client -> SlidingLogScenario.withEntries(client, entries));
      }
    }
    return results;
  }

  private void run(Function<UnifiedJedis, Scenario> open) throws InterruptedException {
    try (Scenario scenario = open.apply(redis)) {
      for (int threads : options.threads()) {
        progress("%s, %d threads", scenario.name(), threads);
        results.add(attempts.best(() -> {
          Measurement measured = ClosedLoop.run(scenario, threads,
              options.warmupBefore(threads), options.measure(), server);
          String note = scenario.afterRun();
          return reported(note.isEmpty() ? measured : measured.withNote(note));
        }));
      }
    } finally {
      server.flushAll(); // each scenario starts from an empty keyspace
    }
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
