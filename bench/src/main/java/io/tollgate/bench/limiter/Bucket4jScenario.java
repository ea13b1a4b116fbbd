package io.tollgate.bench.limiter;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import redis.clients.jedis.UnifiedJedis;

/**
 * Bucket4j's Jedis backend (compare-and-swap: GET the bucket, compute in the JVM, then a small
 * EVAL that writes it back if nobody changed it meanwhile), on the same {@link UnifiedJedis} as
 * Tollgate.
 *
 * <p>Bucket4j takes the same amount from every bandwidth of a bucket, so "1 request and 1,000
 * tokens" cannot be one bucket: it takes a requests bucket and a tokens bucket, two calls, and
 * they are not atomic together (a tokens bucket that says no leaves the request charged unless the
 * caller gives it back with a third call; never needed here, since every call is admitted).
 */
final class Bucket4jScenario implements Scenario {

  /** Kept after a bucket is full again, like Tollgate's 1 s margin. */
  private static final Duration KEEP_AFTER_FULL = Duration.ofSeconds(1);

  private final boolean tokensToo;
  private final BucketProxy[] requestBuckets = new BucketProxy[Workload.SUBJECTS];
  private final BucketProxy[] tokenBuckets = new BucketProxy[Workload.SUBJECTS];

  private Bucket4jScenario(UnifiedJedis redis, boolean tokensToo) {
    this.tokensToo = tokensToo;
    ProxyManager<byte[]> buckets = proxyManager(redis);
    for (int i = 0; i < Workload.SUBJECTS; i++) {
      requestBuckets[i] = buckets.builder().build(key(i, "r"), requestsPerMinute());
      tokenBuckets[i] = buckets.builder().build(key(i, "t"), tokensPerMinute());
    }
  }

  /** One bucket with one bandwidth (requests per minute): one tryConsume per call. */
  static Bucket4jScenario requestsOnly(UnifiedJedis redis) {
    return new Bucket4jScenario(redis, false);
  }

  /** The dual limit: a requests bucket and a tokens bucket, two tryConsume per call. */
  static Bucket4jScenario requestsAndTokens(UnifiedJedis redis) {
    return new Bucket4jScenario(redis, true);
  }

  /**
   * Bucket4j's {@code casBasedBuilder(UnifiedJedis)}: compiled against Jedis 4.4.6, it calls only
   * {@code UnifiedJedis.get/del/eval(byte[]...)}, whose signatures Jedis 8 kept, so it runs on our
   * Jedis 8 {@code RedisClient} unchanged.
   */
  static ProxyManager<byte[]> proxyManager(UnifiedJedis redis) {
    return Bucket4jJedis.casBasedBuilder(redis)
        .expirationAfterWrite(
            ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_FULL))
        .build();
  }

  static BucketConfiguration requestsPerMinute() {
    return BucketConfiguration.builder().addLimit(perMinute(Workload.REQUESTS_PER_MINUTE)).build();
  }

  static BucketConfiguration tokensPerMinute() {
    return BucketConfiguration.builder().addLimit(perMinute(Workload.TOKENS_PER_MINUTE)).build();
  }

  /** Both bandwidths in one bucket: what Bucket4j can store, though not what a dual limit needs. */
  static BucketConfiguration bothInOneBucket() {
    return BucketConfiguration.builder()
        .addLimit(perMinute(Workload.REQUESTS_PER_MINUTE))
        .addLimit(perMinute(Workload.TOKENS_PER_MINUTE))
        .build();
  }

  private static Bandwidth perMinute(long capacity) {
    return Bandwidth.builder().capacity(capacity).refillGreedy(capacity, Duration.ofMinutes(1))
        .build();
  }

  static byte[] key(int subject, String dimension) {
    return ("b4j:{tenant:" + subject + "}:" + dimension).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String name() {
    return tokensToo ? "Bucket4j, 2 buckets (req + tokens)" : "Bucket4j, 1 bucket (requests only)";
  }

  @Override
  public Call caller(int thread, int threads) {
    Workload.Cursor cursor = new Workload.Cursor(Workload.SUBJECTS, thread, threads);
    return () -> {
      int i = cursor.next();
      if (!requestBuckets[i].tryConsume(1)) {
        return false;
      }
      if (tokensToo && !tokenBuckets[i].tryConsume(Workload.ESTIMATE)) {
        requestBuckets[i].addTokens(1); // the request was charged alone: give it back
        return false;
      }
      return true;
    };
  }
}
