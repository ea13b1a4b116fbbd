package io.tollgate.bench.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One child JVM running {@link io.tollgate.bench.agent.app.LatencyApp}. The times to {@code main}
 * and to the end of the first call are taken here, in the parent, from the moment the process is
 * started to the moment its line arrives: what a user waits for, process creation included (the
 * same with and without the agent).
 */
final class ForkedApp {

  private static final long TIMEOUT_SECONDS = 600;

  private ForkedApp() {}

  /**
   * What one run reported. {@code latencies} is empty when no calls were measured, {@code
   * referenceLatencies} unless the paired run had a reference (see {@code LatencyApp}).
   */
  record Run(long toMainNanos, long toFirstCallNanos, long cpuMillis, long warmUpCalls,
      long[] threadCpuPerCall, long[] latencies, long[] plainLatencies,
      long[] referenceLatencies, List<String> agentLines, Process whole) {}

  /**
   * The whole process: from its start to its exit (the JVM's shutdown included), the CPU it had
   * used and the most memory it had resident as {@code main} ended; -1 where not reported.
   */
  record Process(long toExitNanos, long cpuMillis, long peakRssKb) {}

  static Run run(List<String> command, Path stderr) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectError(stderr.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("TOLLGATE_"));
    long started = System.nanoTime();
    java.lang.Process process = builder.start();
    long toMain = -1;
    long toFirstCall = -1;
    long cpuMillis = -1;
    long warmUpCalls = 0;
    long[] threadCpu = new long[0];
    long[] latencies = new long[0];
    long[] plainLatencies = new long[0];
    long[] referenceLatencies = new long[0];
    long endCpuMillis = -1;
    long peakRssKb = -1;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII), 1 << 16)) {
      for (String line; (line = out.readLine()) != null; ) {
        long now = System.nanoTime();
        if (line.equals("main")) {
          toMain = now - started;
        } else if (line.startsWith("first-call ")) {
          toFirstCall = now - started;
        } else if (line.startsWith("cpu-ms ")) {
          cpuMillis = Long.parseLong(line.substring("cpu-ms ".length()));
        } else if (line.startsWith("warm-up-calls ")) {
          warmUpCalls = Long.parseLong(line.substring("warm-up-calls ".length()));
        } else if (line.startsWith("thread-cpu-ns-per-call ")) {
          threadCpu = parse(line.substring("thread-cpu-ns-per-call ".length()));
        } else if (line.startsWith("latencies-ns ")) {
          latencies = parse(line.substring("latencies-ns ".length()));
        } else if (line.startsWith("plain-latencies-ns ")) {
          plainLatencies = parse(line.substring("plain-latencies-ns ".length()));
        } else if (line.startsWith("end-cpu-ms ")) {
          endCpuMillis = Long.parseLong(line.substring("end-cpu-ms ".length()));
        } else if (line.startsWith("peak-rss-kb ")) {
          peakRssKb = Long.parseLong(line.substring("peak-rss-kb ".length()));
        } else if (line.startsWith("reference-latencies-ns ")) {
          referenceLatencies = parse(line.substring("reference-latencies-ns ".length()));
        }
      }
    }
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("the app did not end within " + TIMEOUT_SECONDS + " s");
    }
    long toExit = System.nanoTime() - started;
    List<String> errors = Files.readAllLines(stderr, StandardCharsets.UTF_8);
    if (process.exitValue() != 0 || toFirstCall < 0) {
      throw new IllegalStateException("the app failed (exit " + process.exitValue() + "): "
          + String.join(" | ", errors) + "\ncommand: " + String.join(" ", command));
    }
    List<String> agentLines = new ArrayList<>();
    for (String line : errors) {
      if (line.startsWith("[tollgate]")) {
        agentLines.add(line);
      }
    }
    return new Run(toMain, toFirstCall, cpuMillis, warmUpCalls, threadCpu, latencies,
        plainLatencies, referenceLatencies, agentLines,
        new Process(toExit, endCpuMillis, peakRssKb));
  }

  private static long[] parse(String numbers) {
    String[] parts = numbers.split(" ");
    long[] values = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      values[i] = Long.parseLong(parts[i]);
    }
    return values;
  }
}
