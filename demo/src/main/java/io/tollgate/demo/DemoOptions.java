package io.tollgate.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What one demo run does. {@code TOLLGATE_REDIS_URL} in the environment switches the agent from
 * its in-memory limiter to that Redis (it is the configuration's own override of
 * {@code tollgate.redis.url}, so the child JVM's agent reads it, not the driver).
 *
 * @param duration how long the app makes calls
 * @param threads worker threads per HTTP client in the app
 * @param pause the app's pause between two calls of one thread
 * @param agentJar the built agent
 * @param appJar the built samples/legacy-agent-app
 * @param workDir where tollgate.yaml and the app's output go
 * @param report the HTML report to write
 * @param environment the environment the app's JVM gets (the driver's own, in {@code ./demo})
 */
record DemoOptions(Duration duration, int threads, Duration pause, Path agentJar, Path appJar,
    Path workDir, Path report, Map<String, String> environment) {

  static final String REDIS_URL_VARIABLE = "TOLLGATE_REDIS_URL";
  static final String USAGE = "usage: demo [--duration 40s] [--threads 2] [--pause 250ms]"
      + " [--agent agent/target/tollgate-agent.jar] [--app samples/legacy-agent-app/target/legacy-agent-app.jar]"
      + " [--work-dir target/demo] [--report target/demo-report.html]"
      + "  (TOLLGATE_REDIS_URL=redis://host:port limits through Redis)";

  static DemoOptions parse(String[] args, Map<String, String> environment) {
    Duration duration = Duration.ofSeconds(40);
    int threads = 2;
    Duration pause = Duration.ofMillis(250);
    Path agent = Path.of("agent/target/tollgate-agent.jar");
    Path app = Path.of("samples/legacy-agent-app/target/legacy-agent-app.jar");
    Path workDir = Path.of("target/demo");
    Path report = Path.of("target/demo-report.html");
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(name + " needs a value");
      }
      String value = args[++i];
      switch (name) {
        case "--duration" -> duration = seconds(name, value);
        case "--threads" -> threads = positive(name, value);
        case "--pause" -> pause = millis(name, value);
        case "--agent" -> agent = Path.of(value);
        case "--app" -> app = Path.of(value);
        case "--work-dir" -> workDir = Path.of(value);
        case "--report" -> report = Path.of(value);
        default -> throw new IllegalArgumentException("unknown option " + name);
      }
    }
    return new DemoOptions(duration, threads, pause, agent, app, workDir, report, Map.copyOf(environment));
  }

  /** The Redis the agent is told to use, if any. */
  Optional<String> redisUrl() {
    return Optional.ofNullable(environment.get(REDIS_URL_VARIABLE)).filter(url -> !url.isBlank());
  }

  DemoOptions withDuration(Duration newDuration) {
    return new DemoOptions(newDuration, threads, pause, agentJar, appJar, workDir, report, environment);
  }

  private static Duration seconds(String name, String value) {
    if (!value.matches("\\d+s")) {
      throw new IllegalArgumentException(name + " must be whole seconds such as 40s, was " + value);
    }
    long seconds = Long.parseLong(value.substring(0, value.length() - 1));
    if (seconds < 5) {
      throw new IllegalArgumentException(name + " must be at least 5s, was " + value);
    }
    return Duration.ofSeconds(seconds);
  }

  private static Duration millis(String name, String value) {
    if (!value.matches("\\d+ms")) {
      throw new IllegalArgumentException(name + " must be milliseconds such as 250ms, was " + value);
    }
    return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
  }

  private static int positive(String name, String value) {
    if (!value.matches("[1-9]\\d{0,2}")) {
      throw new IllegalArgumentException(name + " must be a whole number from 1 to 999, was " + value);
    }
    return Integer.parseInt(value);
  }
}
