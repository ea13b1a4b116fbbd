package io.tollgate.together.war;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A servlet container in a JVM of its own, deploying a WAR file: {@code java -javaagent:...
 * -cp <host classes>:<container jars> <host main> <war> 0}. Its stdout and stderr go to files in
 * its run directory; the host main prints {@code started <port> <server>} once the app is up, and
 * stops the container when it reads {@code stop} on its stdin.
 */
final class HostJvm implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private final Process process;
  private final Path stdout;
  private final Path stderr;
  private final int port;
  private final String server;

  private HostJvm(Process process, Path stdout, Path stderr, int port, String server) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
    this.port = port;
    this.server = server;
  }

  /**
   * The test JVM's class path entries that {@code keep} accepts: the container's jars, which the
   * build puts there, and nothing else of it.
   */
  static List<Path> fromTestClassPath(Predicate<String> keep) {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> keep.test(entry.replace(File.separatorChar, '/')))
        .map(Path::of)
        .toList();
  }

  /** Starts the host and waits until it reports the app started; fails if it never does. */
  static HostJvm start(Path runDirectory, List<String> jvmOptions, Map<String, String> environment,
      List<Path> classPath, String mainClass, Path war) throws IOException, InterruptedException {
    Files.createDirectories(runDirectory);
    Path stdout = runDirectory.resolve("stdout.txt");
    Path stderr = runDirectory.resolve("stderr.txt");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(String.join(File.pathSeparator, classPath.stream().map(Path::toString).toList()));
    command.add(mainClass);
    command.add(war.toAbsolutePath().toString());
    command.add("0");
    Files.writeString(runDirectory.resolve("command.txt"), String.join("\n", command) + "\n");
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(runDirectory.toFile())
        .redirectOutput(stdout.toFile())
        .redirectError(stderr.toFile());
    builder.environment().putAll(environment);
    Process process = builder.start();

    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      Optional<String> reported = lines(stdout).stream()
          .filter(line -> line.startsWith("started ") || line.startsWith("failed ")).findFirst();
      if (reported.isPresent() && reported.get().startsWith("started ")) {
        String[] words = reported.get().split(" ", 3);
        return new HostJvm(process, stdout, stderr, Integer.parseInt(words[1]), words[2]);
      }
      if (reported.isPresent() || !process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly().waitFor();
        throw new IllegalStateException(mainClass + " did not start the app ("
            + (reported.orElse(process.isAlive() ? "timed out" : "exited " + process.exitValue()))
            + ")\nstdout:\n" + String.join("\n", lines(stdout))
            + "\nstderr:\n" + String.join("\n", lines(stderr)));
      }
      Thread.sleep(50); // polling for the start, not waiting for a result
    }
  }

  int port() {
    return port;
  }

  /** What the host main printed about the server: {@code Apache Tomcat/11...}, {@code Jetty 12...}. */
  String server() {
    return server;
  }

  List<String> stderr() {
    return lines(stderr);
  }

  /**
   * Stops the container as an operator would (the app undeployed, its filter destroyed), then the
   * JVM (the agent's shutdown hook closes its gate).
   *
   * @return the host's exit code
   */
  int stop() throws IOException, InterruptedException {
    if (process.isAlive()) {
      process.getOutputStream().write("stop\n".getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().flush();
    }
    if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new IllegalStateException("the host did not stop within " + STOP_TIMEOUT);
    }
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
  }

  private static List<String> lines(Path file) {
    try {
      // read while the host writes: a torn last character is replaced, not an error
      return Files.exists(file)
          ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList()
          : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
