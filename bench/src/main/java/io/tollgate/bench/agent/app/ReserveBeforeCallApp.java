package io.tollgate.bench.agent.app;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * What one reserve round trip adds to a call where the agent's calls run, without the agent: the
 * same call to the benchmark's server, over and over on one thread, every other one preceded by a
 * reserve of its own (the limiter the agent's Redis backend uses, same limits), each reserve settled
 * after its call, untimed. A reserve alone in a tight loop runs warmer than one between two calls
 * to another server: here the thread blocks on Redis and on the server in turn, as the agent's
 * does, with the scheduling and cache costs that brings on a small machine.
 *
 * <pre>
 * ReserveBeforeCallApp URL JSON REDIS_URI WARM_UP MEASURED REQUESTS_PER_MINUTE TOKENS_PER_MINUTE
 * </pre>
 *
 * Prints what {@link LatencyApp} prints: {@code latencies-ns} (reserve and call timed together) and
 * {@code plain-latencies-ns} (the call alone), one value per measured pair, and {@code
 * thread-cpu-ns-per-call} (the calling thread's CPU per call with the reserve, then without).
 */
public final class ReserveBeforeCallApp {

  private ReserveBeforeCallApp() {}

  public static void main(String[] args) throws IOException {
    System.out.println("main");
    Request request = new Request.Builder().url(args[0])
        .post(RequestBody.create(MediaType.parse("application/json"), args[1])).build();
    int warmUp = Integer.parseInt(args[3]);
    int measured = Integer.parseInt(args[4]);
    Limits limits = Limits.of(Limit.requests(Long.parseLong(args[5]), Duration.ofMinutes(1)),
        Limit.tokens(Long.parseLong(args[6]), Duration.ofMinutes(1)));
    Subject provider = Subject.of("provider", "openai");
    OkHttpClient client = new OkHttpClient.Builder().readTimeout(20, TimeUnit.SECONDS).build();
    long[] plain = new long[measured];
    long[] withReserve = new long[measured];
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long plainCpu = 0;
    long withReserveCpu = 0;
    try (RedisConnection redis = RedisConnection.standalone(URI.create(args[2]))
        .timeout(Duration.ofSeconds(2)).poolSize(1).build();
        RateLimiter limiter = RateLimiter.redis(redis)) {
      System.out.println("first-call " + call(client, request));
      System.out.println("cpu-ms 0");
      for (int i = 0; i < warmUp + measured; i++) {
        long cpuStart = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        call(client, request);
        long between = System.nanoTime();
        long cpuBetween = threads.getCurrentThreadCpuTime();
        Decision decision = limiter.reserve(provider, limits, 1, 100);
        call(client, request);
        long end = System.nanoTime();
        long cpuEnd = threads.getCurrentThreadCpuTime();
        limiter.settle(decision.reservation().orElseThrow(), 17);
        if (i >= warmUp) {
          plain[i - warmUp] = between - start;
          withReserve[i - warmUp] = end - between;
          plainCpu += cpuBetween - cpuStart;
          withReserveCpu += cpuEnd - cpuBetween;
        }
      }
    }
    System.out.println("thread-cpu-ns-per-call " + withReserveCpu / measured + " "
        + plainCpu / measured);
    System.out.println(LatencyApp.line("latencies-ns", withReserve));
    System.out.println(LatencyApp.line("plain-latencies-ns", plain));
    System.exit(0); // OkHttp's threads
  }

  private static int call(OkHttpClient client, Request request) throws IOException {
    try (Response response = client.newCall(request).execute()) {
      response.body().bytes();
      if (response.code() != 200) {
        throw new IOException("the benchmark's server answered " + response.code());
      }
      return response.code();
    }
  }
}
