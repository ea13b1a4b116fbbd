package io.tollgate.bench.limiter;

import io.tollgate.redis.LuaScript;
import io.tollgate.testkit.redis.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.Jedis;

/**
 * The raw ceiling of one script call: {@code redis-benchmark} (C, one event loop, no client
 * library) sending EVALSHA of {@code return 1} on a subject's key to the same server, {@code -c}
 * connections standing for our threads. (The limiter's own arguments are packed binary, which
 * redis-benchmark cannot send.)
 */
final class RedisBenchmarkCeiling implements Contender {

  static final String NAME = "redis-benchmark EVALSHA return 1 (ceiling)";

  private static final String SCRIPT = "return 1";
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
      admin.scriptLoad(SCRIPT);
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
    return List.of("redis-benchmark",
        "-h", server.host(), "-p", Integer.toString(server.port()),
        "-c", Integer.toString(connections), "-n", Long.toString(calls),
        "-r", Integer.toString(Workload.SUBJECTS),
        "EVALSHA", LuaScript.sha1(SCRIPT), "1", "tg:{tenant:benchmk0__rand_int__}:s");
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
