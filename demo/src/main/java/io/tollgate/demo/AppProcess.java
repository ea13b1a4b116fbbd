package io.tollgate.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * samples/legacy-agent-app in a JVM of its own, exactly as an operator would start it: the app's
 * jar unchanged, the agent and its configuration on the command line. Its output lines go to a
 * {@link Recorder} as they come.
 */
final class AppProcess implements AutoCloseable {

  private final Process process;
  private final List<Thread> pumps = new ArrayList<>();

  private AppProcess(Process process, Recorder recorder) {
    this.process = process;
    pumps.add(pump(process.getInputStream(), recorder::stdout, "demo-app-stdout"));
    pumps.add(pump(process.getErrorStream(), recorder::stderr, "demo-app-stderr"));
  }

  static AppProcess start(DemoOptions options, Path config, String providerUrl, Recorder recorder) throws IOException {
    List<String> command = command(options, config, providerUrl);
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> environment = builder.environment();
    environment.clear();
    environment.putAll(options.environment());
    // The file is given on the agent's command line; a TOLLGATE_CONFIG from the caller's shell must not matter.
    environment.remove("TOLLGATE_CONFIG");
    environment.put(DemoConfig.BACKUP_KEY_VARIABLE, DemoConfig.BACKUP_KEY);
    return new AppProcess(builder.start(), recorder);
  }

  /** The command line; {@code ./demo} prints it so that the run can be repeated by hand. */
  static List<String> command(DemoOptions options, Path config, String providerUrl) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-javaagent:" + options.agentJar().toAbsolutePath() + "=config=" + config.toAbsolutePath(),
        BreakerEvent.LOG_FORMAT_OPTION,
        "-jar", options.appJar().toAbsolutePath().toString(),
        "--base-url", providerUrl,
        "--api-key", DemoConfig.APP_KEY,
        "--threads", Integer.toString(options.threads()),
        "--duration", options.duration().toSeconds() + "s",
        "--pause", options.pause().toMillis() + "ms");
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Waits for the app to end and its output to be read; -1 when it did not end in time. */
  int await(long timeoutMillis) throws InterruptedException {
    if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
      return -1;
    }
    for (Thread pump : pumps) {
      pump.join(10_000);
    }
    return process.exitValue();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }

  private static Thread pump(InputStream stream, Consumer<String> lines, String name) {
    Thread thread = new Thread(() -> {
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          lines.accept(line);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
