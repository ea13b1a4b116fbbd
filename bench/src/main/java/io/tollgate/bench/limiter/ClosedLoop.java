package io.tollgate.bench.limiter;

import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.Histogram;
import redis.clients.jedis.Jedis;

/**
 * Runs a scenario on N threads, each calling in a closed loop (next call when the last returns):
 * a warm-up that is thrown away, then a measured interval of fixed length. Every measured call's
 * latency goes into the thread's own HdrHistogram (no sharing on the hot path); they are merged at
 * the end.
 *
 * <p>Closed loop means the latencies are service times at that concurrency, not what an open
 * stream of arrivals would see when the limiter falls behind (no coordinated-omission correction).
 */
final class ClosedLoop {

  private static final long MAX_RECORDABLE_NANOS = Duration.ofSeconds(60).toNanos();
  private static final int SIGNIFICANT_DIGITS = 3;

  private enum Phase { WARMUP, MEASURE, DONE }

  private volatile Phase phase = Phase.WARMUP;
  private final Worker[] workers;

  private ClosedLoop(Scenario scenario, int threads) {
    workers = new Worker[threads];
    for (int i = 0; i < threads; i++) {
      workers[i] = new Worker(scenario.caller(i, threads));
    }
  }

  /** The scenario as a contender: each measurement resets it, then runs it on fresh threads. */
  static Contender driving(Scenario scenario, RedisServer server) {
    return new Contender() {
      @Override
      public String name() {
        return scenario.name();
      }

      @Override
      public Measurement measure(int threads, Duration warmup, Duration measure)
          throws InterruptedException {
        scenario.reset();
        Measurement measured = new ClosedLoop(scenario, threads)
            .measure(scenario.name(), warmup, measure, server);
        String note = scenario.afterRun();
        return note.isEmpty() ? measured : measured.withNote(note);
      }

      @Override
      public void close() {
        scenario.close();
      }
    };
  }

  private Measurement measure(String name, Duration warmup, Duration measure, RedisServer server)
      throws InterruptedException {
    CountDownLatch started = new CountDownLatch(workers.length);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < workers.length; i++) {
      Worker worker = workers[i];
      Thread thread = new Thread(() -> worker.loop(started), "bench-" + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    started.await();
    Thread.sleep(warmup.toMillis());

    double redisBefore;
    double redisAfter;
    double jvmBefore;
    double jvmAfter;
    double machineBefore;
    double machineAfter;
    double scriptMicros;
    long scriptCalls;
    long begin;
    long end;
    // opened before the interval, so that its handshake is not measured
    try (Jedis admin = server.jedis()) {
      redisBefore = CpuClocks.redis(admin);
      jvmBefore = CpuClocks.jvm();
      machineBefore = CpuClocks.machineBusy();
      ScriptTime.reset(admin);
      begin = System.nanoTime();
      phase = Phase.MEASURE;
      Thread.sleep(measure.toMillis());
      phase = Phase.DONE;
      end = System.nanoTime();
      jvmAfter = CpuClocks.jvm();
      machineAfter = CpuClocks.machineBusy();
      redisAfter = CpuClocks.redis(admin);
      scriptMicros = ScriptTime.microsPerCall(admin);
      scriptCalls = ScriptTime.calls(admin);
    }
    for (Thread thread : threads) {
      thread.join();
    }

    Histogram latencies = new Histogram(MAX_RECORDABLE_NANOS, SIGNIFICANT_DIGITS);
    long denied = 0;
    long errors = 0;
    RuntimeException firstError = null;
    for (Worker worker : workers) {
      latencies.add(worker.latencies);
      denied += worker.denied;
      errors += worker.errors;
      firstError = firstError != null ? firstError : worker.firstError;
    }
    if (firstError != null) {
      System.err.println("  " + errors + " calls failed; the first: " + firstError);
    }
    return new Measurement(name, workers.length, latencies.getTotalCount(), (end - begin) / 1e9,
        micros(latencies.getValueAtPercentile(50)), micros(latencies.getValueAtPercentile(99)),
        micros(latencies.getValueAtPercentile(99.9)), micros(latencies.getMaxValue()),
        denied, errors, redisAfter - redisBefore, jvmAfter - jvmBefore,
        machineAfter - machineBefore, scriptMicros, scriptCalls, "");
  }

  private static double micros(long nanos) {
    return nanos / 1000.0;
  }

  /** One thread's loop and what it measured; read by the coordinator only after join(). */
  private final class Worker {
    private final Scenario.Call call;
    private final Histogram latencies = new Histogram(MAX_RECORDABLE_NANOS, SIGNIFICANT_DIGITS);
    private long denied;
    private long errors;
    private RuntimeException firstError;

    Worker(Scenario.Call call) {
      this.call = call;
    }

    void loop(CountDownLatch started) {
      started.countDown();
      Phase now;
      while ((now = phase) != Phase.DONE) {
        // A call counts when it starts inside the interval; one per thread may end just after it.
        boolean measured = now == Phase.MEASURE;
        long start = System.nanoTime();
        try {
          boolean admitted = call.run();
          long took = System.nanoTime() - start;
          if (measured) {
            latencies.recordValue(Math.min(took, MAX_RECORDABLE_NANOS));
            denied += admitted ? 0 : 1;
          }
        } catch (RuntimeException e) {
          if (measured) {
            errors++;
            firstError = firstError != null ? firstError : e;
          }
        }
      }
    }
  }
}
