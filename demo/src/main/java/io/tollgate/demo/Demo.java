package io.tollgate.demo;

import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The demo: a primary provider that starts to rate-limit and then fails, a backup, and an unmodified
 * app in its own JVM calling the primary through three HTTP clients under the agent. Prints progress
 * every second, then a summary table, and writes an HTML report.
 *
 * <p>Run it with {@code ./demo} from the project's root (it builds what it needs first); see
 * docs/demo.md.
 */
public final class Demo {

  /** The app's start-up: JVM, agent, ByteBuddy; generous for a loaded machine. */
  private static final long START_TIMEOUT_MILLIS = 90_000;
  private static final long AGENT_LINE_TIMEOUT_MILLIS = 10_000;
  private static final Duration STREAM_EVENT_DELAY = Duration.ofMillis(10);

  private Demo() {}

  public static void main(String[] args) throws Exception {
    DemoOptions options;
    try {
      options = DemoOptions.parse(args, System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("demo: " + e.getMessage());
      System.err.println(DemoOptions.USAGE);
      System.exit(2);
      return;
    }
    DemoResult result = run(options, System.out);
    result.problem().ifPresent(problem -> System.err.println("demo: " + problem));
    System.exit(result.succeeded() ? 0 : 1);
  }

  static DemoResult run(DemoOptions options, PrintStream console) throws IOException, InterruptedException {
    for (Path jar : List.of(options.agentJar(), options.appJar())) {
      if (!Files.isRegularFile(jar)) {
        return failed(jar + " does not exist; ./demo builds it (mvn -B -ntp -DskipTests -pl demo -am package)", List.of());
      }
    }
    Files.createDirectories(options.workDir());
    try (MockLlmServer primary = MockLlmServer.start(); MockLlmServer backup = MockLlmServer.start()) {
      primary.requireApiKey(DemoConfig.APP_KEY).chunkDelay(STREAM_EVENT_DELAY);
      backup.requireApiKey(DemoConfig.BACKUP_KEY).chunkDelay(STREAM_EVENT_DELAY);
      Phase.HEALTHY.apply(primary.script(), 0);
      backup.script().always(Fault.latency(Phase.LATENCY));
      Path config = options.workDir().resolve("tollgate.yaml");
      int statusPort = StatusWatch.freePort();
      Files.writeString(config, DemoConfig.yaml(primary, backup, statusPort), StandardCharsets.UTF_8);
      StatusWatch status = new StatusWatch(statusPort);
      String limiter = options.redisUrl().map(url -> "Redis (" + DemoOptions.REDIS_URL_VARIABLE + "=" + redacted(url) + ")")
          .orElse("in-memory (set " + DemoOptions.REDIS_URL_VARIABLE + "=redis://host:port for Redis)");
      console.println("Tollgate demo: " + options.duration().toSeconds() + " s, " + options.threads()
          + " threads per client (OkHttp, JDK HttpClient, Apache HttpClient 5), every second call streamed");
      console.println("  primary " + DemoConfig.PRIMARY + " at " + primary.baseUrl() + ", backup "
          + DemoConfig.BACKUP + " at " + backup.baseUrl() + "; limiter: " + limiter);
      console.println("  configuration: " + config);
      console.println("  status page: " + StatusWatch.pageUrl(statusPort)
          + " (open it in a browser while the demo runs)");
      console.println("  primary's story: " + story(options.duration()));
      console.println("  app: " + String.join(" ", AppProcess.command(options, config, primary.baseUrl())));
      console.println();
      Recorder recorder = new Recorder();
      try (AppProcess app = AppProcess.start(options, config, primary.baseUrl(), recorder)) {
        if (!recorder.awaitStart(START_TIMEOUT_MILLIS)) {
          return failed("the app did not start within " + START_TIMEOUT_MILLIS / 1000 + " s; its output: "
              + recorder.otherLines(), recorder.agentLines());
        }
        Optional<String> agentProblem = awaitAgent(recorder);
        recorder.agentLines().forEach(line -> console.println("  agent: " + line));
        if (agentProblem.isPresent()) {
          return failed(agentProblem.get(), recorder.agentLines());
        }
        int exit = runPhases(options, app, recorder, primary, backup, status, console);
        if (exit != 0) {
          return failed("the app ended with status " + exit + "; its last lines: " + recorder.otherLines(),
              recorder.agentLines());
        }
      }
      Summary summary = Summary.of(recorder.calls(), primary.requests(), backup.requests(),
          recorder.breakerEvents(), recorder.coreLog(), recorder.instrumented(), recorder.startEpochMillis(),
          recorder.doneCalls()).withChecks(StatusChecks.of(status, recorder.breakerEvents()));
      console.print(SummaryTable.render(summary));
      Path report = options.report();
      if (report.toAbsolutePath().getParent() != null) {
        Files.createDirectories(report.toAbsolutePath().getParent());
      }
      Files.writeString(report, HtmlReport.render(summary, options.duration(), limiter, status.last()),
          StandardCharsets.UTF_8);
      console.println("\nReport: " + report.toAbsolutePath());
      return new DemoResult(Optional.of(summary),
          summary.allChecksPassed() ? Optional.empty() : Optional.of("a consistency check failed"),
          recorder.agentLines(), Optional.of(report));
    }
  }

  /** Plays the primary's phases on time and prints progress each second until the app ends. */
  private static int runPhases(DemoOptions options, AppProcess app, Recorder recorder, MockLlmServer primary,
      MockLlmServer backup, StatusWatch status, PrintStream console) throws InterruptedException {
    // two threads: a slow read of the status page must not delay the primary's phases
    ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, r -> {
      Thread thread = new Thread(r, "demo-phases");
      thread.setDaemon(true);
      return thread;
    });
    try {
      PrimaryLoad load = new PrimaryLoad(primary, options.duration(), recorder.startEpochMillis());
      timer.scheduleAtFixedRate(load, 0, PrimaryLoad.TICK.toMillis(), TimeUnit.MILLISECONDS);
      timer.scheduleAtFixedRate(status, 500, 500, TimeUnit.MILLISECONDS);
      timer.scheduleAtFixedRate(() -> console.println(Progress.line(recorder, primary, backup, options.duration())),
          1000, 1000, TimeUnit.MILLISECONDS);
      return app.await(options.duration().toMillis() + START_TIMEOUT_MILLIS);
    } finally {
      timer.shutdownNow();
      timer.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** The agent's start-up line says whether it runs; without it the demo would show nothing of Tollgate. */
  private static Optional<String> awaitAgent(Recorder recorder) throws InterruptedException {
    long deadline = System.currentTimeMillis() + AGENT_LINE_TIMEOUT_MILLIS;
    while (System.currentTimeMillis() < deadline) {
      for (String line : recorder.agentLines()) {
        if (line.startsWith("[tollgate] on:")) {
          return Optional.empty();
        }
        if (line.startsWith("[tollgate] disabled") || line.startsWith("[tollgate] off")
            || line.startsWith("[tollgate] start-up aborted")) {
          return Optional.of("the agent did not start: " + line);
        }
      }
      Thread.sleep(50);
    }
    return Optional.of("the agent printed no start-up line within " + AGENT_LINE_TIMEOUT_MILLIS / 1000 + " s");
  }

  private static String story(Duration run) {
    StringBuilder story = new StringBuilder();
    for (Phase phase : Phase.values()) {
      story.append(story.length() == 0 ? "" : ", ").append("from ").append(phase.start(run).toSeconds())
          .append(" s ").append(phase.description);
    }
    return story.toString();
  }

  private static String redacted(String url) {
    return url.replaceAll("//[^@/]*@", "//***@");
  }

  private static DemoResult failed(String problem, List<String> agentLines) {
    return new DemoResult(Optional.empty(), Optional.of(problem), agentLines, Optional.empty());
  }
}
