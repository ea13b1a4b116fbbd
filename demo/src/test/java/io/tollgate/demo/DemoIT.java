package io.tollgate.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.Subject;
import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.testkit.redis.RedisServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Runs the demo driver for a short while against the built agent and app jars, and checks that
 * what it reports adds up with what the mock providers recorded and the app logged.
 */
class DemoIT {

  private static final Duration RUN = Duration.ofSeconds(12);

  @TempDir
  Path workDir;

  @Test
  void inMemoryRunAddsUp() throws Exception {
    ByteArrayOutputStream console = new ByteArrayOutputStream();

    DemoResult result = Demo.run(options(Map.of()), new PrintStream(console, true, StandardCharsets.UTF_8));

    String printed = console.toString(StandardCharsets.UTF_8);
    assertThat(result.problem()).as(printed).isEmpty();
    assertThat(result.agentLines()).anySatisfy(line -> assertThat(line)
        .startsWith("[tollgate] on: mode enforce, providers [demo-primary, demo-backup], limiter in-memory"));
    Summary summary = result.summary().orElseThrow();
    assertAddsUp(summary);
    assertThat(printed).contains("Calls, by the app's client", "Providers (requests as the mock providers recorded them)",
        "Circuit breaker transitions", "Report: ");
    assertThat(printed.lines().filter(line -> line.matches(
        "  status page: http://127\\.0\\.0\\.1:\\d+/ \\(open it in a browser while the demo runs\\)"))).hasSize(1);
    assertThat(summary.checks()).extracting(Summary.Check::description)
        .anySatisfy(check -> assertThat(check).startsWith("the status page answered while the app ran"))
        .contains("the status page showed demo-primary's breaker open, as the agent logged it");
    // The progress: one line a second while the app ran.
    assertThat(printed.lines().filter(line -> line.matches("\\s+\\d+s\\s+\\S+\\s+calls.*")).count())
        .isGreaterThanOrEqualTo(RUN.toSeconds() - 1);

    String html = Files.readString(result.report().orElseThrow(), StandardCharsets.UTF_8);
    assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "Decisions per second", "demo-primary",
            "Status page at the end of the run", "<td>agent</td>")
        // Self-contained: nothing fetched from elsewhere (the SVG namespace is a name, not a fetch).
        .doesNotContain("<script", "<link", " src=", "href=", "@import", "url(");
  }

  @Test
  void redisRunKeepsTheLimitsInRedis() throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      DemoResult result = Demo.run(options(Map.of(DemoOptions.REDIS_URL_VARIABLE, redis.uri().toString())),
          new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

      assertThat(result.problem()).isEmpty();
      assertThat(result.agentLines()).anySatisfy(line -> assertThat(line).contains("limiter redis"));
      assertAddsUp(result.summary().orElseThrow());
      try (Jedis jedis = redis.jedis()) {
        assertThat(jedis.exists(RedisKeys.stateKey(Subject.of("provider", DemoConfig.PRIMARY))))
            .as("the primary's limiter state lives in Redis").isTrue();
      }
    }
  }

  /** Redis gone from the start: the agent still starts, and limits in memory by the fail-open policy. */
  @Test
  void unreachableRedisFallsBackToLocalLimits() throws Exception {
    String url;
    try (RedisServer redis = RedisServer.start()) {
      url = redis.uri().toString();
    }

    DemoResult result = Demo.run(options(Map.of(DemoOptions.REDIS_URL_VARIABLE, url)),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    assertThat(result.problem()).isEmpty();
    assertThat(result.agentLines()).anySatisfy(line -> assertThat(line).contains("limiter redis"));
    Summary summary = result.summary().orElseThrow();
    assertThat(summary.coreLog()).anySatisfy(line -> assertThat(line)
        .contains("WARNING Redis limiter unreachable: JedisConnectionException: Failed to connect to "
            + url.substring("redis://".length()) + ". (ConnectException: Connection refused)")
        .endsWith("; deciding locally with 1.0 of each limit until it answers"));
    assertAddsUp(summary);
  }

  private DemoOptions options(Map<String, String> extraEnvironment) {
    Map<String, String> environment = new java.util.HashMap<>(System.getenv());
    environment.keySet().removeIf(name -> name.startsWith("TOLLGATE_"));
    environment.putAll(extraEnvironment);
    return DemoOptions.parse(new String[] {
        "--duration", RUN.toSeconds() + "s",
        "--agent", System.getProperty("tollgate.agent.jar", "../agent/target/tollgate-agent.jar"),
        "--app", System.getProperty("sample.app.jar", "../samples/legacy-agent-app/target/legacy-agent-app.jar"),
        "--work-dir", workDir.toString(),
        "--report", workDir.resolve("report.html").toString()}, environment);
  }

  private static void assertAddsUp(Summary summary) {
    assertThat(summary.checks()).allSatisfy(check -> assertThat(check.passed()).as(check.description()).isTrue());
    assertThat(summary.callCount()).isPositive();
    assertThat(summary.instrumented())
        .contains("okhttp", "jdk-httpclient", "apache-httpclient-4", "apache-httpclient-5");

    Summary.ProviderRow primary = summary.providers().get(0);
    Summary.ProviderRow backup = summary.providers().get(1);
    assertThat(primary.name()).isEqualTo(DemoConfig.PRIMARY);
    assertThat(backup.name()).isEqualTo(DemoConfig.BACKUP);
    // The backup never fails: it received exactly the calls it answered, the app's fallbacks.
    int fallbacks = summary.count(Fate.FALLBACK_AFTER_ERROR) + summary.count(Fate.FALLBACK_SKIPPED_PRIMARY);
    assertThat(backup.requests()).isEqualTo(backup.answered()).isEqualTo(fallbacks);
    // Every call that reached the primary was answered there, rerouted after its error, or got its error.
    assertThat(primary.answered()).isEqualTo(summary.count(Fate.PRIMARY));
    assertThat(primary.requests()).isEqualTo(summary.count(Fate.PRIMARY) + summary.count(Fate.FALLBACK_AFTER_ERROR)
        + summary.count(Fate.PROVIDER_ERROR));
    assertThat(summary.count(Fate.NO_RESPONSE)).isZero();

    for (Summary.ClientRow row : summary.clients()) {
      assertThat(row.calls()).isPositive();
      if (!row.gated()) {
        // A client Tollgate does not see is neither rerouted nor refused by it.
        assertThat(row.calls()).isEqualTo(row.count(Fate.PRIMARY) + row.count(Fate.PROVIDER_ERROR));
      }
    }
    long gatedUsedAtPrimary = 0;
    long usedAtBackup = 0;
    long spentAtPrimary = 0;
    long spentAtBackup = 0;
    for (Summary.Judged judged : summary.calls()) {
      CallOutcome call = judged.call();
      if (call.status() == 200) {
        // The mock's usage: a quarter of the prompt's characters, and 20 completion tokens.
        String content = "Summarise ticket " + call.id() + " in one sentence for the support dashboard.";
        assertThat(call.promptTokens()).as(call.id()).isEqualTo((content.length() + 3) / 4);
        assertThat(call.completionTokens()).as(call.id()).isEqualTo(20);
        assertThat(call.model()).isEqualTo(judged.fate() == Fate.PRIMARY ? "gpt-4o" : "gpt-4o-mini");
        // the bundled list prices: gpt-4o 2.50 and 10.00, gpt-4o-mini 0.15 and 0.60 USD per million
        long cost = judged.fate() == Fate.PRIMARY
            ? (call.promptTokens() * 2_500_000 + 20 * 10_000_000 + 999_999) / 1_000_000
            : (call.promptTokens() * 150_000 + 20 * 600_000 + 999_999) / 1_000_000;
        assertThat(call.costMicroUsd()).as(call.id()).isEqualTo(cost);
        if (judged.fate() == Fate.PRIMARY) {
          spentAtPrimary += cost;
        } else if (judged.fate().answeredByBackup()) {
          spentAtBackup += cost;
        }
        if (judged.fate() == Fate.PRIMARY && Instrumented.covers(summary.instrumented(), call.client())) {
          gatedUsedAtPrimary += call.usedTokens();
        } else if (judged.fate().answeredByBackup()) {
          usedAtBackup += call.usedTokens();
        }
      }
    }
    assertThat(primary.settledTokens()).isEqualTo(gatedUsedAtPrimary);
    assertThat(backup.settledTokens()).isEqualTo(usedAtBackup);
    assertThat(primary.spentMicroUsd()).isEqualTo(spentAtPrimary);
    assertThat(backup.spentMicroUsd()).isEqualTo(spentAtBackup).isPositive();
    // Reserved: prompt + max_tokens (64) per admitted attempt; used: prompt + 20 for each answered one.
    assertThat(primary.reservedTokens()).isGreaterThan(primary.settledTokens());
    assertThat(backup.requests()).as("calls rerouted while the primary rate-limits and fails").isPositive();
    assertThat(backup.reservedTokens()).isGreaterThan(backup.settledTokens());

    List<BreakerEvent> events = summary.breakerEvents();
    assertThat(events).allSatisfy(event -> assertThat(event.provider()).isEqualTo(DemoConfig.PRIMARY));
    if (!events.isEmpty()) {
      assertThat(events.get(0).label()).isEqualTo("CLOSED -> OPEN (FAILURES)");
    }
  }
}
