package io.tollgate.testkit.redis.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Kills every {@code redis-server} still running, and deletes every fixture directory still
 * present, when the JVM exits normally.
 *
 * <p>This is the polite half of the no-orphan guarantee: it runs on {@code System.exit}, the end
 * of a test run or SIGTERM. A JVM killed with SIGKILL runs no hooks; the watchdog script started
 * by {@link WatchedProcess} covers that case. One hook for everything, so processes are killed
 * before their directories are deleted.
 */
public final class ProcessReaper {

  private static final Duration EXIT_WAIT = Duration.ofSeconds(2);
  private static final Set<WatchedProcess> PROCESSES = ConcurrentHashMap.newKeySet();
  private static final Set<Path> DIRECTORIES = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(ProcessReaper::reapAll, "tollgate-redis-reaper"));
  }

  private ProcessReaper() {}

  static void track(WatchedProcess process) {
    PROCESSES.add(process);
  }

  static void untrack(WatchedProcess process) {
    PROCESSES.remove(process);
  }

  /** Creates a fresh private directory, deleted at JVM exit unless {@link #delete}d before. */
  public static Path createDirectory(String prefix) {
    try {
      Path directory = Files.createTempDirectory(prefix);
      DIRECTORIES.add(directory);
      return directory;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not create a temp directory " + prefix, e);
    }
  }

  /** Deletes {@code directory} and everything below it; a failure is not worth failing a test. */
  public static void delete(Path directory) {
    DIRECTORIES.remove(directory);
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(ProcessReaper::deleteQuietly);
    } catch (IOException ignored) {
      // Already gone, or the OS will clean the temp dir; a leftover never breaks a later run.
    }
  }

  private static void reapAll() {
    List<WatchedProcess> processes = new ArrayList<>(PROCESSES);
    // Signal everything first, then wait: N servers take one wait, not N.
    processes.forEach(WatchedProcess::signalKill);
    processes.forEach(process -> process.killForcibly(EXIT_WAIT));
    new ArrayList<>(DIRECTORIES).forEach(ProcessReaper::delete);
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException ignored) {
      // See delete(): best effort by design.
    }
  }
}
