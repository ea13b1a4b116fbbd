package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.testkit.redis.RedisServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * 16 threads in each of 3 JVMs on one subject: what they admit together never exceeds capacity
 * plus refill over the run, in either dimension, and comes within 5 % of it when saturated.
 */
class RedisFleetExactnessTest {

  private static final int JVMS = 3;
  private static final long RUN_MILLIS = 3_000;

  private static RedisServer server;

  @BeforeAll
  static void start() {
    server = RedisServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void requestsStayWithinTheBoundAcrossThreeJvms() throws Exception {
    long requestsPerMinute = 600;
    Fleet fleet = run("fleet-requests", requestsPerMinute, 1_000_000_000L, "fixed");

    double bound = requestsPerMinute + requestsPerMinute * fleet.elapsedMicros() / 60e6;
    assertThat(fleet.errors()).isZero();
    assertThat((double) fleet.admitted()).isLessThanOrEqualTo(bound);
    assertThat((double) fleet.admitted()).isGreaterThanOrEqualTo(0.95 * bound);
  }

  @Test
  void tokensStayWithinTheBoundWithRandomCostsAndSettledUsage() throws Exception {
    // small enough that 48 threads exhaust it within the run even on a busy machine (about 300
    // calls of 1-500 tokens): the lower bound is about the limiter, not the machine's speed
    long tokensPerMinute = 60_000;
    Fleet fleet = run("fleet-tokens", 1_000_000_000L, tokensPerMinute, "random");

    // usage beyond an estimate is charged even into debt: what is still owed at the end
    // is the only way past capacity + refill
    Subject subject = Subject.of("tenant", "fleet-tokens");
    Limit tokens = Limit.tokens(tokensPerMinute, java.time.Duration.ofMinutes(1));
    String level;
    try (var jedis = server.jedis()) {
      level = jedis.hget(RedisKeys.stateKey(subject), tokens.stateField());
    }
    double debt = Math.max(0, -Double.parseDouble(level) / tokens.windowTicks());
    double bound = tokensPerMinute + tokensPerMinute * fleet.elapsedMicros() / 60e6;
    assertThat(fleet.errors()).isZero();
    assertThat((double) fleet.usedTokens()).isLessThanOrEqualTo(bound + debt);
    assertThat((double) fleet.usedTokens()).isGreaterThanOrEqualTo(0.95 * bound);
  }

  @Test
  void aSpendBudgetIsNeverOverspentByThreeJvmsOfSixteenThreads() throws Exception {
    // about 330 calls of 1-5,000 µUSD settled at 30-100 % of their estimate: spent in the run
    long budget = 500_000;
    Fleet fleet = run("fleet-spend", 1_000_000_000L, budget, "spend");

    Subject subject = Subject.of("tenant", "fleet-spend");
    Limit daily = Limit.spendPerDay(budget);
    long counted;
    try (var jedis = server.jedis()) {
      counted = Long.parseLong(jedis.hget(RedisKeys.stateKey(subject), daily.stateField()));
    }
    assertThat(fleet.errors()).isZero();
    // nothing past the budget, and the state holds exactly what the calls spent
    assertThat(fleet.usedTokens()).isLessThanOrEqualTo(budget).isEqualTo(counted);
    assertThat((double) fleet.usedTokens()).isGreaterThanOrEqualTo(0.95 * budget);
  }

  private Fleet run(String subject, long requestsPerMinute, long tokensPerMinute, String mode)
      throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<Process> processes = new ArrayList<>();
    for (int i = 0; i < JVMS; i++) {
      processes.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
          FleetWorker.class.getName(), Integer.toString(server.port()), subject,
          Long.toString(requestsPerMinute), Long.toString(tokensPerMinute),
          Long.toString(RUN_MILLIS), mode)
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start());
    }
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    long admitted = 0;
    long used = 0;
    long errors = 0;
    for (Process process : processes) {
      String result = null;
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          if (line.startsWith("RESULT ")) {
            result = line;
          }
        }
      }
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).isZero();
      assertThat(result).isNotNull();
      String[] parts = result.split(" ");
      first = Math.min(first, Long.parseLong(parts[1]));
      last = Math.max(last, Long.parseLong(parts[2]));
      admitted += Long.parseLong(parts[3]);
      used += Long.parseLong(parts[4]);
      errors += Long.parseLong(parts[5]);
    }
    Fleet fleet = new Fleet(last - first, admitted, used, errors);
    System.out.println(subject + ": " + fleet); // the figures behind the assertions, for the record
    return fleet;
  }

  private record Fleet(long elapsedMicros, long admitted, long usedTokens, long errors) {}
}
