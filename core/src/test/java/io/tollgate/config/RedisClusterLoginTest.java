package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.LimiterHealth;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.redis.RedisClientAccess;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A Redis Cluster whose nodes require a password ({@code requirepass}, replicas {@code
 * masterauth}), reached through {@code tollgate.redis.cluster} written as users write it: URLs
 * whose password comes from an environment variable.
 */
class RedisClusterLoginTest {

  private static final String PASSWORD = "Cl7ster-s3cret";
  private static final String WRONG_PASSWORD = "Wr0ng-s3cret";
  private static final Limits FIVE_PER_MINUTE = Limits.of(Limit.requests(5, Duration.ofMinutes(1)));

  private static RedisCluster cluster;

  @BeforeAll
  static void start() {
    cluster = RedisCluster.builder().password(PASSWORD).start();
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void limitsExactlyOnAPasswordProtectedClusterOnEveryMaster() {
    List<Subject> subjects = oneSubjectPerMaster();

    try (RateLimiter limiter = Limiters.create(urlSeeds(PASSWORD, "fail-closed").redis())) {
      for (Subject subject : subjects) {
        List<Decision> decisions = IntStream.range(0, 8)
            .mapToObj(i -> limiter.reserve(subject, FIVE_PER_MINUTE, 1, 0))
            .toList();

        assertThat(decisions).filteredOn(Decision::allowed).hasSize(5);
        assertThat(decisions).filteredOn(Decision::degraded).isEmpty();
        assertThat(decisions.get(4).remainingRequests()).isZero();
      }
      assertThat(((LimiterHealth) limiter).isDegraded()).isFalse();
    }
    try (RedisClusterClient client = cluster.client()) {
      assertThat(subjects).allSatisfy(subject ->
          assertThat(client.exists(RedisKeys.stateKey(subject))).isTrue());
    }
  }

  @Test
  void aWrongPasswordDegradesTheLimiterWithOneWarningThatNamesTheCauseAndNotThePassword() {
    Subject subject = Subject.of("tenant", "wrong-password");
    List<Decision> decisions;
    List<String> log;
    try (LogRecorder recorder = LogRecorder.of("io.tollgate.limiter.ResilientRateLimiter");
        RateLimiter limiter = Limiters.create(urlSeeds(WRONG_PASSWORD, "fail-closed").redis())) {
      decisions = IntStream.range(0, 4)
          .mapToObj(i -> limiter.reserve(subject, FIVE_PER_MINUTE, 1, 0))
          .toList();
      assertThat(recorder.warnings()).containsExactly("Redis limiter unreachable: Redis refused the"
          + " login (WRONGPASS invalid username-password pair or user is disabled.); check the user"
          + " and password in tollgate.redis; deciding to deny (fail-closed) until it answers");
      log = recorder.lines();
    }

    assertThat(decisions).allMatch(decision -> !decision.allowed() && decision.degraded());
    assertThat(log).isNotEmpty().noneMatch(line -> line.contains(WRONG_PASSWORD));
  }

  @Test
  void aWrongPasswordFailsTheClientWithAnErrorThatDoesNotRepeatIt() {
    RedisConfig config = urlSeeds(WRONG_PASSWORD, "fail-open").redis().orElseThrow();

    try (RedisConnection connection = config.newConnection()) {
      // Jedis 8 wraps it: "Could not initialize cluster slots cache.", the refusal suppressed
      assertThatThrownBy(() -> RedisClientAccess.client(connection))
          .isInstanceOf(JedisException.class)
          .satisfies(error -> assertThat(stackTrace(error))
              .contains("JedisAccessControlException: WRONGPASS invalid username-password pair"
                  + " or user is disabled.")
              .doesNotContain(WRONG_PASSWORD));
      assertThat(connection.ping()).isFalse();
    }
    assertThat(config.toString()).doesNotContain(WRONG_PASSWORD);
  }

  @Test
  void plainSeedsReachTheNodesButAreRefusedForWantOfAPassword() {
    String seeds = cluster.seeds().stream().map(HostAndPort::toString)
        .collect(Collectors.joining(", ", "[", "]"));
    TollgateConfig config = Loaders.yaml("tollgate:\n  redis:\n    cluster: " + seeds
        + "\n    timeout: 2s\n    on-failure: fail-closed\n");

    try (LogRecorder recorder = LogRecorder.of("io.tollgate.limiter.ResilientRateLimiter");
        RateLimiter limiter = Limiters.create(config.redis())) {
      IntStream.range(0, 3).forEach(i -> limiter.reserve(Subject.of("tenant", "x"), FIVE_PER_MINUTE, 1, 0));

      // Jedis 8 opens with HELLO, which Redis refuses with a longer NOAUTH
      assertThat(recorder.warnings()).singleElement().satisfies(warning -> assertThat(warning)
          .startsWith("Redis limiter unreachable: Redis refused the login (NOAUTH ")
          .endsWith("); check the user and password in tollgate.redis;"
              + " deciding to deny (fail-closed) until it answers"));
    }
  }

  /** The seeds as URLs whose password is {@code ${REDIS_PASSWORD}}, set to {@code password}. */
  private static TollgateConfig urlSeeds(String password, String onFailure) {
    String seeds = cluster.seeds().stream()
        .map(node -> "'redis://:${REDIS_PASSWORD}@" + node + "'")
        .collect(Collectors.joining(", ", "[", "]"));
    return Loaders.yaml("tollgate:\n  redis:\n    cluster: " + seeds
        + "\n    timeout: 5s\n    on-failure: " + onFailure + "\n", Map.of("REDIS_PASSWORD", password));
  }

  private static List<Subject> oneSubjectPerMaster() {
    List<Subject> subjects = new ArrayList<>();
    Set<HostAndPort> masters = new HashSet<>();
    for (int i = 0; subjects.size() < RedisCluster.MASTERS; i++) {
      Subject subject = Subject.of("tenant", "login-" + i);
      if (masters.add(cluster.masterForKey(RedisKeys.stateKey(subject)))) {
        subjects.add(subject);
      }
    }
    return subjects;
  }

  private static String stackTrace(Throwable error) {
    StringWriter trace = new StringWriter();
    error.printStackTrace(new PrintWriter(trace));
    return trace.toString();
  }
}
