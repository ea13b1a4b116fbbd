package io.tollgate.bench.limiter;

import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Priority classes under saturation (docs/limiter.md, "Priority classes"): batch threads ask for
 * as much as they can get of one limit while critical threads send a steady, smaller load; run
 * once with batch allowed 70 % of the limit (priority classes) and once with every call equal.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.tollgate.bench.limiter.PriorityBench [seconds]</pre>
 */
public final class PriorityBench {

  /** Requests per minute of the one limit: 20 per second refill, 1,200 at once. */
  static final long CAPACITY = 1_200;
  static final int BATCH_THREADS = 12;
  static final int CRITICAL_THREADS = 2;
  /** Each critical thread's pause between calls: 10 per second in all, half the refill. */
  static final Duration CRITICAL_PAUSE = Duration.ofMillis(200);

  private PriorityBench() {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
    Limits limits = Limits.of(Limit.requests(CAPACITY, Duration.ofMinutes(1)));
    try (RedisServer server = RedisServer.start();
        RedisConnection redis = RedisConnection.of(server.uri());
        RateLimiter limiter = RateLimiter.redis(redis)) {
      System.out.printf(Locale.ROOT, "one limit of %d requests per minute on Redis %s; %d batch"
          + " threads asking without pause, %d critical threads each every %d ms; %d s per run%n%n",
          CAPACITY, server.version(), BATCH_THREADS, CRITICAL_THREADS, CRITICAL_PAUSE.toMillis(),
          seconds);
      System.out.println("| run | class | asked | admitted | admitted % | per second |");
      System.out.println("|---|---|---:|---:|---:|---:|");
      run("every call equal", limiter, Subject.of("provider", "equal"), limits, limits, seconds);
      run("batch 0.7, critical 1.0", limiter, Subject.of("provider", "classes"),
          limits.sharing(0.7), limits, seconds);
    }
  }

  private static void run(String name, RateLimiter limiter, Subject subject, Limits batch,
      Limits critical, int seconds) throws InterruptedException {
    AtomicBoolean running = new AtomicBoolean(true);
    long[] counts = new long[4];
    // batch asked, admitted; critical asked, admitted
    AtomicLong[] shared = {new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong()};
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < BATCH_THREADS; i++) {
      threads.add(started(() -> {
        while (running.get()) {
          shared[0].incrementAndGet();
          if (limiter.reserve(subject, batch, 1, 0).allowed()) {
            shared[1].incrementAndGet();
          }
        }
      }));
    }
    for (int i = 0; i < CRITICAL_THREADS; i++) {
      threads.add(started(() -> {
        while (running.get()) {
          shared[2].incrementAndGet();
          if (limiter.reserve(subject, critical, 1, 0).allowed()) {
            shared[3].incrementAndGet();
          }
          try {
            Thread.sleep(CRITICAL_PAUSE.toMillis());
          } catch (InterruptedException e) {
            return;
          }
        }
      }));
    }
    TimeUnit.SECONDS.sleep(seconds);
    running.set(false);
    for (Thread thread : threads) {
      thread.join();
    }
    for (int i = 0; i < 4; i++) {
      counts[i] = shared[i].get();
    }
    row(name, "batch", counts[0], counts[1], seconds);
    row(name, "critical", counts[2], counts[3], seconds);
  }

  private static Thread started(Runnable work) {
    Thread thread = new Thread(work);
    thread.start();
    return thread;
  }

  private static void row(String run, String priorityClass, long asked, long admitted, int seconds) {
    System.out.printf(Locale.ROOT, "| %s | %s | %,d | %,d | %.1f | %.1f |%n", run, priorityClass,
        asked, admitted, 100.0 * admitted / Math.max(1, asked), (double) admitted / seconds);
  }
}
