package io.tollgate.limiter;

import io.tollgate.redis.RedisConnection;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.Jedis;

/**
 * One JVM of a fleet in {@link RedisFleetExactnessTest}: 16 threads hammering one subject for a
 * while, then one line of what was admitted, in server time.
 *
 * <p>Arguments: redis port, subject id, requests per minute, tokens per minute, run millis, and
 * {@code fixed} (1 request, 1 token each), {@code random} (1..500 tokens estimated, 30-120 % of
 * it used and settled) or {@code spend} (the tokens argument is a daily budget in micro-dollars;
 * 1..5,000 µUSD estimated, 30-100 % of it spent and settled; the spend is what is reported).
 
 */
public final class FleetWorker {

  static final int THREADS = 16;

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    Subject subject = Subject.of("tenant", args[1]);
    boolean spend = args[5].equals("spend");
    Limits limits = Limits.of(Limit.requests(Long.parseLong(args[2]), Duration.ofMinutes(1)),
        spend ? Limit.spendPerDay(Long.parseLong(args[3]))
            : Limit.tokens(Long.parseLong(args[3]), Duration.ofMinutes(1)));
    long runMillis = Long.parseLong(args[4]);
    boolean random = args[5].equals("random");
    URI uri = URI.create("redis://127.0.0.1:" + port);

    AtomicLong admitted = new AtomicLong();
    AtomicLong usedTokens = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    CountDownLatch done = new CountDownLatch(THREADS);
    try (RedisRateLimiter limiter = RedisLimiters.owning(RedisConnection.standalone(uri)
        .timeout(Duration.ofSeconds(2)).poolSize(THREADS).build(), Duration.ofMinutes(5));
        Jedis clock = new Jedis("127.0.0.1", port)) {
      long start = serverMicros(clock);
      long deadline = System.nanoTime() + runMillis * 1_000_000;
      for (int t = 0; t < THREADS; t++) {
        long seed = ProcessHandle.current().pid() * 100 + t;
        Thread thread = new Thread(() -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          try {
            while (System.nanoTime() < deadline) {
              if (spend) {
                long estimate = 1 + rnd.nextInt(5_000);
                Decision decision = limiter.reserve(subject, limits, 1, 10, estimate);
                if (decision.allowed()) {
                  admitted.incrementAndGet();
                  long spent = estimate * (30 + rnd.nextInt(71)) / 100;
                  limiter.settle(decision.reservation().orElseThrow(), 10, spent);
                  usedTokens.addAndGet(spent);
                }
                continue;
              }
              long estimate = random ? 1 + rnd.nextInt(500) : 1;
              Decision decision = limiter.reserve(subject, limits, 1, estimate);
              if (decision.allowed()) {
                admitted.incrementAndGet();
                long used = random ? estimate * (30 + rnd.nextInt(91)) / 100 : estimate;
                if (random) {
                  limiter.settle(decision.reservation().orElseThrow(), used);
                }
                usedTokens.addAndGet(used);
              }
            }
          } catch (RuntimeException e) {
            errors.incrementAndGet();
            e.printStackTrace();
          } finally {
            done.countDown();
          }
        });
        thread.start();
      }
      done.await();
      long end = serverMicros(clock);
      System.out.println("RESULT " + String.join(" ", List.of(
          Long.toString(start), Long.toString(end), Long.toString(admitted.get()),
          Long.toString(usedTokens.get()), Long.toString(errors.get()))));
    }
  }

  private static long serverMicros(Jedis jedis) {
    List<String> time = jedis.time();
    return Long.parseLong(time.get(0)) * 1_000_000L + Long.parseLong(time.get(1));
  }
}
