package io.tollgate.bench.limiter;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.redis.RedisConnection;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redis memory one subject costs under each scheme, by {@code MEMORY USAGE key SAMPLES 0} (every
 * element counted, key name and Redis's per-key overhead included), after one admitted call.
 */
final class MemoryPerSubject {

  static final String TOLLGATE_STATE = "Tollgate state, dual per-minute limit";

  /** One line of the memory table. */
  record Row(String what, long bytes, String note) {}

  private MemoryPerSubject() {}

  static List<Row> measure(RedisConnection tollgate, UnifiedJedis redis) {
    List<Row> rows = new ArrayList<>();
    tollgate(tollgate, redis, rows);
    for (int entries : new int[] {100, 1_000, 10_000}) {
      String requests = "log:{tenant:mem-" + entries + "}:r";
      String tokens = "log:{tenant:mem-" + entries + "}:t";
      SlidingLogScenario.fillOne(redis, requests, tokens, entries);
      rows.add(new Row(String.format("Sorted-set log, %,d entries", entries),
          bytes(redis, requests) + bytes(redis, tokens), "two ZSETs (requests, tokens), "
              + redis.objectEncoding(tokens) + " encoding"));
    }
    bucket4j(redis, rows);
    return rows;
  }

  private static void tollgate(RedisConnection tollgate, UnifiedJedis redis, List<Row> rows) {
    Subject subject = Subject.of("tenant", "memory-probe");
    Decision decision = RateLimiter.redis(tollgate)
        .reserve(subject, Workload.limits(), 1, Workload.ESTIMATE);
    if (!decision.allowed()) {
      throw new IllegalStateException("the memory probe's reserve was denied: " + decision);
    }
    String state = RedisKeys.stateKey(subject);
    rows.add(new Row(TOLLGATE_STATE, bytes(redis, state),
        "one hash: " + redis.hlen(state) + " fields, " + redis.objectEncoding(state)
            + " encoding; no record per call in flight"));
  }

  private static void bucket4j(UnifiedJedis redis, List<Row> rows) {
    ProxyManager<byte[]> buckets = Bucket4jScenario.proxyManager(redis);
    long requestsOnly = bucket(redis, buckets, "mem-r", Bucket4jScenario.requestsPerMinute(), 1);
    long tokensOnly = bucket(redis, buckets, "mem-t", Bucket4jScenario.tokensPerMinute(),
        Workload.ESTIMATE);
    long both = bucket(redis, buckets, "mem-rt", Bucket4jScenario.bothInOneBucket(), 1);
    rows.add(new Row("Bucket4j, 1 bucket, 1 bandwidth", requestsOnly, "requests only"));
    rows.add(new Row("Bucket4j, 2 buckets (requests + tokens)", requestsOnly + tokensOnly,
        "the dual limit's equivalent"));
    rows.add(new Row("Bucket4j, 1 bucket, 2 bandwidths", both,
        "for scale only: takes the same amount from both"));
  }

  private static long bucket(UnifiedJedis redis, ProxyManager<byte[]> buckets, String name,
      BucketConfiguration configuration, long consume) {
    byte[] key = Bucket4jScenario.key(0, name);
    buckets.builder().build(key, configuration).tryConsume(consume);
    return redis.memoryUsage(key, 0);
  }

  private static long bytes(UnifiedJedis redis, String key) {
    Long bytes = redis.memoryUsage(key, 0);
    if (bytes == null) {
      throw new IllegalStateException(key + " does not exist");
    }
    return bytes;
  }
}
