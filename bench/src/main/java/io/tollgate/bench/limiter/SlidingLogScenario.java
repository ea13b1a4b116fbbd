package io.tollgate.bench.limiter;

import io.tollgate.limiter.internal.ReservationIds;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * The tutorial baseline: two sorted sets per subject (requests, tokens) and a Lua script that sums
 * the token log on every call (sliding-log.lua), with the window held at a given number of entries.
 *
 * <p>Holding the size: the window is an hour, so nothing ages out during the benchmark, and each
 * admitted call adds one entry per log. Before each interval the logs are trimmed back to their
 * size, and calls go round enough subjects that one interval (warm-up and measurement, at most 9 s)
 * adds under 10 % to each log at up to 20,000 calls/s (a 100-entry log then also stays below
 * Redis's 128-entry listpack limit, keeping one encoding throughout). {@link #afterRun()} reports
 * the sizes each interval ended with, so this is checked, not assumed.
 */
final class SlidingLogScenario implements Scenario {

  private static final String RESOURCES = "/io/tollgate/bench/limiter/";
  private static final String SCRIPT = resource("sliding-log.lua");
  private static final String FILL_SCRIPT = resource("sliding-log-fill.lua");
  private static final Duration WINDOW = Duration.ofHours(1);
  /** Far above anything a run reaches: every call is admitted, as with the other scenarios. */
  private static final long MAX_REQUESTS = 1_000_000_000L;
  private static final long MAX_TOKENS = 1_000_000_000_000L;

  private final UnifiedJedis redis;
  private final int entries;
  private final int subjects;
  private final String sha;
  private final String[] requestKeys;
  private final String[] tokenKeys;
  private final List<String> fixedArgs;

  private SlidingLogScenario(UnifiedJedis redis, int entries, int subjects) {
    this.redis = redis;
    this.entries = entries;
    this.subjects = subjects;
    this.sha = redis.scriptLoad(SCRIPT);
    this.requestKeys = new String[subjects];
    this.tokenKeys = new String[subjects];
    for (int i = 0; i < subjects; i++) {
      // a prefix per size: the three logs live side by side in one server
      requestKeys[i] = "log" + entries + ":{tenant:" + i + "}:r";
      tokenKeys[i] = "log" + entries + ":{tenant:" + i + "}:t";
    }
    this.fixedArgs = List.of(Long.toString(WINDOW.toMillis()), Long.toString(MAX_REQUESTS),
        Long.toString(MAX_TOKENS));
    fill();
  }

  /** A log of {@code entries} per window, over enough subjects to hold that size (see above). */
  static SlidingLogScenario withEntries(UnifiedJedis redis, int entries) {
    int subjects = Math.max(200, 2_000_000 / entries); // 10 % of the logs = 22,000 calls/s × 9 s
    return new SlidingLogScenario(redis, entries, subjects);
  }

  @Override
  public String name() {
    return name(entries);
  }

  static String name(int entries) {
    return String.format("Sorted-set log, %,d entries", entries);
  }

  @Override
  public Call caller(int thread, int threads) {
    Workload.Cursor cursor = new Workload.Cursor(subjects, thread, threads);
    String cost = Long.toString(Workload.ESTIMATE);
    return () -> {
      int i = cursor.next();
      List<String> args = List.of(fixedArgs.get(0), fixedArgs.get(1), fixedArgs.get(2),
          ReservationIds.next(), cost);
      List<?> reply = (List<?>) redis.evalsha(sha, List.of(requestKeys[i], tokenKeys[i]), args);
      return (Long) reply.get(0) == 1L;
    };
  }

  /** Trims every log back to its newest {@code entries} members. */
  @Override
  public void reset() {
    try (AbstractPipeline pipeline = redis.pipelined()) {
      for (int i = 0; i < subjects; i++) {
        pipeline.zremrangeByRank(requestKeys[i], 0, -entries - 1);
        pipeline.zremrangeByRank(tokenKeys[i], 0, -entries - 1);
      }
      pipeline.sync();
    }
  }

  /** The token logs' sizes at the end of the run: they must still be about {@code entries}. */
  @Override
  public String afterRun() {
    long min = Long.MAX_VALUE;
    long max = 0;
    long sum = 0;
    try (AbstractPipeline pipeline = redis.pipelined()) {
      Response<?>[] sizes = new Response<?>[subjects];
      for (int i = 0; i < subjects; i++) {
        sizes[i] = pipeline.zcard(tokenKeys[i]);
      }
      pipeline.sync();
      for (Response<?> size : sizes) {
        long n = (Long) size.get();
        min = Math.min(min, n);
        max = Math.max(max, n);
        sum += n;
      }
    }
    return String.format("%,d subjects; log size at end %,d–%,d (mean %,.0f)", subjects, min, max,
        (double) sum / subjects);
  }

  private void fill() {
    String fillSha = redis.scriptLoad(FILL_SCRIPT);
    for (int i = 0; i < subjects; i++) {
      fill(redis, fillSha, requestKeys[i], tokenKeys[i], entries);
    }
  }

  /** Fills one subject's two logs with {@code entries} entries each, for measuring memory. */
  static void fillOne(UnifiedJedis redis, String requestKey, String tokenKey, int entries) {
    fill(redis, redis.scriptLoad(FILL_SCRIPT), requestKey, tokenKey, entries);
  }

  private static void fill(UnifiedJedis redis, String fillSha, String requestKey, String tokenKey,
      int entries) {
    redis.evalsha(fillSha, List.of(requestKey, tokenKey), List.of(Integer.toString(entries),
        Long.toString(Workload.ESTIMATE), Long.toString(WINDOW.toMillis())));
  }

  private static String resource(String name) {
    try (InputStream in = SlidingLogScenario.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCES + name + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
