package io.tollgate.limiter;

import io.tollgate.redis.RedisConnection;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.Jedis;

/**
 * One JVM of a fleet in {@link LeaseFleetTest}: 16 threads hammering one subject, with or without
 * leases. Prints {@code START <server µs>}, then every 10 ms {@code AT <server µs> <admitted>
 * <used tokens> <requests leased now>}, and at the end {@code RESULT <start> <end> <admitted>
 * <used tokens> <errors>}, times in server time. A call is counted once admitted, so a JVM killed
 * outright has printed no more than it admitted; an {@code AT} line's counts are read after its
 * time, so they are at least what was admitted by then.
 *
 * <p>Arguments: redis port, subject id, requests per minute, tokens per minute, run millis,
 * {@code fixed} (1 request, 1 token each) or {@code random} (1..500 tokens estimated, 30-120 % of
 * it used and settled), and {@code off}, {@code auto} or a lease size in calls, then the lease TTL
 * in ms; optionally a role: {@code gated} prints {@code READY} and starts when a line arrives on
 * stdin; {@code hold} admits {@value #HOLD_AFTER} calls, then takes a lease, prints {@code HOLDING
 * <requests leased>} and waits to be killed while holding it.
 */
public final class LeaseFleetWorker {

  static final int THREADS = 16;
  private static final long REPORT_EVERY_MILLIS = 10;
  /** A JVM that is to be killed holding a lease admits this many calls first. */
  private static final long HOLD_AFTER = 500;

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    Subject subject = Subject.of("tenant", args[1]);
    Limits plain = Limits.of(Limit.requests(Long.parseLong(args[2]), Duration.ofMinutes(1)),
        Limit.tokens(Long.parseLong(args[3]), Duration.ofMinutes(1)));
    long runMillis = Long.parseLong(args[4]);
    boolean random = args[5].equals("random");
    Duration ttl = Duration.ofMillis(Long.parseLong(args[7]));
    PrintStream out = System.out;
    Limits limits = switch (args[6]) {
      case "off" -> plain;
      case "auto" -> plain.withLeases(LeasePolicy.auto(ttl));
      default -> plain.withLeases(LeasePolicy.ofCalls(Long.parseLong(args[6]), ttl));
    };
    String role = args.length > 8 ? args[8] : "";
    boolean hold = role.equals("hold");
    if (role.equals("gated")) {
      out.println("READY");
      out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    }
    URI uri = URI.create("redis://127.0.0.1:" + port);

    AtomicLong admitted = new AtomicLong();
    AtomicLong usedTokens = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    CountDownLatch done = new CountDownLatch(THREADS);

    try (RedisRateLimiter limiter = RedisLimiters.owning(RedisConnection.standalone(uri)
        .timeout(Duration.ofSeconds(2)).poolSize(THREADS).build(), Duration.ofMinutes(5));
        Jedis clock = new Jedis("127.0.0.1", port)) {
      long start = serverMicros(clock);
      out.println("START " + start);
      out.flush();
      long deadline = System.nanoTime() + runMillis * 1_000_000;
      for (int t = 0; t < THREADS; t++) {
        long seed = ProcessHandle.current().pid() * 100 + t;
        Thread thread = new Thread(() -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          try {
            while (System.nanoTime() < deadline) {
              long estimate = random ? 1 + rnd.nextInt(500) : 1;
              if (hold && admitted.get() >= HOLD_AFTER) {
                break;
              }
              Decision decision = limiter.reserve(subject, limits, 1, estimate);
              if (decision.allowed()) {
                long used = random ? estimate * (30 + rnd.nextInt(91)) / 100 : estimate;
                if (random) {
                  limiter.settle(decision.reservation().orElseThrow(), used);
                }
                usedTokens.addAndGet(used);
                admitted.incrementAndGet();
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
      if (hold) {
        done.await();
        for (int i = 0; i < 100 && limiter.leasedRequests(subject, limits) == 0; i++) {
          if (limiter.reserve(subject, limits, 1, 1).allowed()) {
            admitted.incrementAndGet();
            usedTokens.incrementAndGet();
          }
        }
        out.println("AT " + serverMicros(clock) + " " + admitted.get() + " " + usedTokens.get()
            + " " + limiter.leasedRequests(subject, limits));
        out.println("HOLDING " + limiter.leasedRequests(subject, limits));
        out.flush();
        new CountDownLatch(1).await(); // until killed
      }
      while (!done.await(REPORT_EVERY_MILLIS, TimeUnit.MILLISECONDS)) {
        // the time first: a line counts at least what was admitted by its time
        long at = serverMicros(clock);
        long leased = limiter.leasedRequests(subject, limits);
        out.println("AT " + at + " " + admitted.get() + " " + usedTokens.get() + " " + leased);
        out.flush();
      }
      long end = serverMicros(clock);
      out.println("RESULT " + String.join(" ", List.of(
          Long.toString(start), Long.toString(end), Long.toString(admitted.get()),
          Long.toString(usedTokens.get()), Long.toString(errors.get()))));
      out.flush();
    }
  }

  private static long serverMicros(Jedis jedis) {
    List<String> time = jedis.time();
    return Long.parseLong(time.get(0)) * 1_000_000L + Long.parseLong(time.get(1));
  }
}
