package io.tollgate.testkit.redis.internal;

import io.tollgate.testkit.redis.RedisFixtureException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One {@code redis-server} process, started under the {@code watchdog.sh} shell script so that it
 * cannot outlive this JVM even when the JVM is killed with SIGKILL.
 *
 * <p>Process tree: this JVM → {@code sh} (watchdog) → {@code redis-server} and a watcher subshell
 * blocked reading the watchdog's stdin. This class keeps that stdin pipe open; however the JVM
 * ends, the kernel closes it and the watcher kills the server. The server writes its log to a file
 * (never to a pipe the JVM must drain), so a chatty server can never block on a full pipe.
 */
public final class WatchedProcess {

  private static final String WATCHDOG_SCRIPT = loadWatchdogScript();
  private static final int LOG_TAIL_BYTES = 8 * 1024;

  private final Process watchdog;
  private final ProcessHandle server;
  private final OutputStream lifeline;
  private final Path logFile;

  private WatchedProcess(Process watchdog, ProcessHandle server, Path logFile) {
    this.watchdog = watchdog;
    this.server = server;
    this.lifeline = watchdog.getOutputStream();
    this.logFile = logFile;
  }

  /**
   * Starts {@code command} under the watchdog, appending its stdout and stderr to {@code logFile}.
   * If this JVM dies without stopping it, the watchdog kills it and deletes {@code workDirectory}.
   */
  public static WatchedProcess launch(List<String> command, Path logFile, Path workDirectory) {
    List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", WATCHDOG_SCRIPT));
    argv.add("tollgate-redis-watchdog");
    argv.add(logFile.toString());
    argv.add(workDirectory.toString());
    argv.addAll(command);
    Process watchdog;
    try {
      watchdog = new ProcessBuilder(argv).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new RedisFixtureException("Could not start /bin/sh to run " + command, e);
    }
    long serverPid = readServerPid(watchdog, command);
    // If the server is gone already (a binary that cannot run here), the watchdog stands in for
    // it: it exits at once, and the caller reports the log.
    ProcessHandle server = ProcessHandle.of(serverPid).orElse(watchdog.toHandle());
    WatchedProcess process = new WatchedProcess(watchdog, server, logFile);
    ProcessReaper.track(process);
    return process;
  }

  public long pid() {
    return server.pid();
  }

  public boolean isAlive() {
    return server.isAlive();
  }

  /**
   * Waits until the server has exited and the watchdog has reaped it. Waiting on the watchdog, our
   * own child, is what makes this exact: it exits only after {@code wait} has collected the server.
   */
  public boolean awaitExit(Duration timeout) {
    try {
      boolean exited = watchdog.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (exited) {
        release();
      }
      return exited && !server.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** SIGKILLs the server (a crash, as far as Redis and its clients can tell) and waits for it. */
  public void killForcibly(Duration timeout) {
    signalKill();
    if (!awaitExit(timeout)) {
      // A process that ignores SIGKILL for seconds is stuck in the kernel. Pull the lifeline (the
      // watcher retries the kill and deletes the directory; boot() recreates it), drop the shell.
      release();
      watchdog.destroyForcibly();
      awaitExit(timeout);
    }
  }

  /** Sends SIGKILL to the server without waiting, so that many servers can die in parallel. */
  void signalKill() {
    server.destroyForcibly();
  }

  /** The last few kilobytes of the server's log, for error messages. */
  public String logTail() {
    return logTail(logFile);
  }

  public static String logTail(Path logFile) {
    if (!Files.exists(logFile)) {
      return "(no log written at " + logFile + ")";
    }
    try (RandomAccessFile file = new RandomAccessFile(logFile.toFile(), "r")) {
      long start = Math.max(0, file.length() - LOG_TAIL_BYTES);
      byte[] bytes = new byte[(int) (file.length() - start)];
      file.seek(start);
      file.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(could not read " + logFile + ": " + e + ")";
    }
  }

  private void release() {
    ProcessReaper.untrack(this);
    try {
      lifeline.close();
    } catch (IOException ignored) {
      // The watchdog is gone already; nothing is left to tell.
    }
  }

  private static long readServerPid(Process watchdog, List<String> command) {
    InputStream stdout = watchdog.getInputStream();
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(stdout, StandardCharsets.US_ASCII))) {
      String line = reader.readLine();
      if (line == null || !line.trim().matches("\\d+")) {
        watchdog.destroyForcibly();
        throw new RedisFixtureException(
            "The watchdog shell did not report a PID for " + command + ", it wrote: " + line);
      }
      return Long.parseLong(line.trim());
    } catch (IOException e) {
      watchdog.destroyForcibly();
      throw new UncheckedIOException("Reading the PID of " + command, e);
    }
  }

  private static String loadWatchdogScript() {
    try (InputStream in = WatchedProcess.class.getResourceAsStream("watchdog.sh")) {
      if (in == null) {
        throw new IllegalStateException("watchdog.sh is missing from the testkit jar");
      }
      // Comments stay in the resource for readers, out of every `ps` line of the running script.
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(line -> !line.isBlank() && !line.stripLeading().startsWith("#"))
          .collect(Collectors.joining("\n"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
