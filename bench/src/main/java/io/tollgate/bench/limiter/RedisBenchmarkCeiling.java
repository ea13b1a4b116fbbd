package io.tollgate.bench.limiter;

import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limit;
import io.tollgate.redis.LuaScript;
import io.tollgate.testkit.redis.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.Jedis;

/**
 * The raw ceiling: {@code redis-benchmark} (C, one event loop, no client library) sending the same
 * EVALSHA of limiter.lua that {@code RedisRateLimiter.reserve} sends, with the same arguments, to
 * the same server, {@code -c} connections standing for our threads.
 *
 * <p>redis-benchmark replaces every {@code __rand_int__} with its own random 12-digit number below
 * {@code -r}: the state key draws from the same 10,000 subjects as the Java scenarios, and the
 * record key has two of them (10^8 names), so nearly every call writes a fresh record, as a real
 * reserve does. Key lengths match the real ones (20-character subject digest, 22-character id).
 */
final class RedisBenchmarkCeiling implements Contender {

  static final String NAME = "redis-benchmark EVALSHA (ceiling)";

  private static final LuaScript SCRIPT = LuaScript.load("limiter");
  private static final long RESERVATION_TTL_MILLIS = Duration.ofMinutes(10).toMillis();
  private static final int CALIBRATION_CALLS = 20_000;

  private static final Pattern THROUGHPUT =
      Pattern.compile("throughput summary: ([0-9.]+) requests per second");
  private static final Pattern PERCENTILE =
      Pattern.compile("^\\s*([0-9.]+)% <= ([0-9.]+) milliseconds");
  private static final Pattern NUMBERS = Pattern.compile("^\\s*[0-9.]+(\\s+[0-9.]+){5}\\s*$");

  private final RedisServer server;
  /** Calls that last about the measured interval, per concurrency, from a calibration run. */
  private final Map<Integer, Long> callsPerRun = new HashMap<>();

  RedisBenchmarkCeiling(RedisServer server) {
    this.server = server;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * The first time at a concurrency, a calibration run (which also creates the subjects' state)
   * sizes the run to last about {@code measure}; redis-benchmark has no JIT to warm up, so later
   * rounds need no warm-up.
   */
  @Override
  public Measurement measure(int connections, Duration warmup, Duration measure) {
    try (Jedis admin = server.jedis()) {
      admin.scriptLoad(SCRIPT.source());
      long calls = callsPerRun.computeIfAbsent(connections, c -> Math.max(CALIBRATION_CALLS,
          Math.round(benchmark(c, CALIBRATION_CALLS).throughput() * measure.toMillis() / 1000.0)));

      double redisBefore = CpuClocks.redis(admin);
      double childBefore = CpuClocks.reapedChildren();
      double machineBefore = CpuClocks.machineBusy();
      ScriptTime.reset(admin);
      Output run = benchmark(connections, calls);
      double machineAfter = CpuClocks.machineBusy();
      double childAfter = CpuClocks.reapedChildren();
      double redisAfter = CpuClocks.redis(admin);
      double scriptMicros = ScriptTime.microsPerCall(admin);
      long scriptCalls = ScriptTime.calls(admin);

      double seconds = calls / run.throughput();
      return new Measurement(NAME, connections, calls, seconds, run.p50(), run.p99(), run.p999(),
          run.max(), 0, 0, redisAfter - redisBefore, childAfter - childBefore,
          machineAfter - machineBefore, scriptMicros, scriptCalls, "");
    }
  }

  /** The redis-benchmark command line, for the docs and the report. */
  List<String> command(int connections, long calls) {
    List<String> command = new ArrayList<>(List.of("redis-benchmark",
        "-h", server.host(), "-p", Integer.toString(server.port()),
        "-c", Integer.toString(connections), "-n", Long.toString(calls),
        "-r", Integer.toString(Workload.SUBJECTS),
        "EVALSHA", SCRIPT.sha1(), "2",
        "tg:{tenant:benchmk0__rand_int__}:s",
        "tg:{tenant:benchmk0__rand_int__}:r:__rand_int____rand_int__",
        "reserve", "1", Long.toString(Workload.ESTIMATE), Long.toString(RESERVATION_TTL_MILLIS)));
    List<Limit> limits = Workload.limits().all();
    command.add(Integer.toString(limits.size()));
    // The same groups of six RedisRateLimiter sends; see the header of lua/limiter.lua.
    for (Limit limit : limits) {
      command.add(limit.stateField());
      command.add(limit.dimension() == Dimension.REQUESTS ? "0" : "1");
      command.add(limit.algorithm() == Algorithm.TOKEN_BUCKET ? "0" : "1");
      command.add(Long.toString(limit.capacity()));
      command.add(Long.toString(limit.windowTicks()));
      command.add(Long.toString(limit.tickMicros()));
    }
    return command;
  }

  private Output benchmark(int connections, long calls) {
    List<String> command = command(connections, calls);
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int exit = process.waitFor();
      if (exit != 0 || !output.contains("throughput summary")) {
        throw new IllegalStateException("redis-benchmark failed (exit " + exit + "): " + output);
      }
      if (output.contains("ERR") || output.contains("NOSCRIPT")) {
        throw new IllegalStateException("redis-benchmark got errors from the script: " + output);
      }
      return Output.parse(output);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run redis-benchmark (is it on PATH?)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * What redis-benchmark printed, in µs. Its p50 and p99 come from the summary line; its p99.9 is
   * the first point of its percentile distribution at or above 99.9 % (it prints 99.902 %), a hair
   * above the true p99.9.
   */
  private record Output(double throughput, double p50, double p99, double p999, double max) {

    static Output parse(String output) {
      Matcher throughput = THROUGHPUT.matcher(output);
      if (!throughput.find()) {
        throw new IllegalStateException("no throughput in: " + output);
      }
      double p999 = Double.NaN;
      String[] summary = null;
      String[] lines = output.split("[\r\n]+");
      for (int i = 0; i < lines.length; i++) {
        Matcher percentile = PERCENTILE.matcher(lines[i]);
        if (Double.isNaN(p999) && percentile.find()
            && Double.parseDouble(percentile.group(1)) >= 99.9) {
          p999 = Double.parseDouble(percentile.group(2)) * 1000;
        }
        if (lines[i].contains("avg") && lines[i].contains("p99") && i + 1 < lines.length
            && NUMBERS.matcher(lines[i + 1]).matches()) {
          summary = lines[i + 1].trim().split("\\s+"); // avg min p50 p95 p99 max, ms
        }
      }
      if (summary == null) {
        throw new IllegalStateException("no latency summary in: " + output);
      }
      return new Output(Double.parseDouble(throughput.group(1)),
          Double.parseDouble(summary[2]) * 1000, Double.parseDouble(summary[4]) * 1000, p999,
          Double.parseDouble(summary[5]) * 1000);
    }
  }
}
