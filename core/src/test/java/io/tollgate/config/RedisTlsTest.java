package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.testkit.redis.RedisCluster;
import io.tollgate.testkit.redis.RedisServer;
import io.tollgate.testkit.tls.TestCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;

/**
 * {@code rediss://} against a real TLS-only Redis that also requires a password, standalone and
 * Cluster. Tollgate trusts what the JVM trusts, so the positive cases run in a child JVM whose
 * {@code javax.net.ssl.trustStore} holds the test certificate, as an app's would hold its Redis's
 * CA; this JVM does not trust it, which shows that the certificate is checked at all.
 */
class RedisTlsTest {

  private static final String PASSWORD = "Tls-s3cret";
  private static final Limits FIVE_PER_MINUTE = Limits.of(Limit.requests(5, Duration.ofMinutes(1)));

  private static TestCertificate certificate;
  private static RedisServer server;
  private static RedisCluster cluster;

  @BeforeAll
  static void start() {
    certificate = TestCertificate.generate();
    server = RedisServer.builder().tls(certificate).password(PASSWORD).start();
    cluster = RedisCluster.builder().tls(certificate).password(PASSWORD).start();
  }

  @AfterAll
  static void stop() {
    cluster.close();
    server.close();
    certificate.close();
  }

  @Test
  void aStandaloneRedissUrlWithAPasswordLimitsExactly() throws Exception {
    String yaml = "tollgate:\n  redis:\n    url: rediss://:${REDIS_PASSWORD}@127.0.0.1:" + server.port()
        + "\n    timeout: 2s\n    on-failure: fail-closed\n";

    assertThat(runTrustingWorker(yaml, List.of("standalone")))
        .containsExactly("RESULT standalone 5 0");
    try (Jedis jedis = server.jedis()) {
      assertThat(jedis.exists(RedisKeys.stateKey(Subject.of("tenant", "standalone")))).isTrue();
    }
  }

  @Test
  void aClusterOfRedissSeedsWithAPasswordLimitsExactlyOnEveryMaster() throws Exception {
    List<String> subjects = oneSubjectPerMaster();

    assertThat(runTrustingWorker(clusterYaml(), subjects)).containsExactlyElementsOf(
        subjects.stream().map(id -> "RESULT " + id + " 5 0").toList());
    try (RedisClusterClient client = cluster.client()) {
      assertThat(subjects).allSatisfy(id ->
          assertThat(client.exists(RedisKeys.stateKey(Subject.of("tenant", id)))).isTrue());
    }
  }

  @Test
  void aCertificateTheJvmDoesNotTrustDegradesTheLimiterAndNamesTheTlsFailure() {
    TollgateConfig config = Loaders.yaml(clusterYaml(), Map.of("REDIS_PASSWORD", PASSWORD));
    Subject subject = Subject.of("tenant", "untrusted");

    List<Decision> decisions;
    try (LogRecorder recorder = LogRecorder.of("io.tollgate.limiter.ResilientRateLimiter");
        RateLimiter limiter = Limiters.create(config.redis())) {
      decisions = IntStream.range(0, 3)
          .mapToObj(i -> limiter.reserve(subject, FIVE_PER_MINUTE, 1, 0)).toList();

      assertThat(recorder.warnings()).singleElement().satisfies(warning -> assertThat(warning)
          .startsWith("Redis limiter unreachable: ")
          .contains("PKIX path building failed")
          .endsWith("; deciding to deny (fail-closed) until it answers")
          .doesNotContain(PASSWORD));
    }
    assertThat(decisions).allMatch(decision -> !decision.allowed() && decision.degraded());
    try (RedisClusterClient client = cluster.client()) {
      assertThat(client.exists(RedisKeys.stateKey(subject))).isFalse();
    }
  }

  /** A Cluster client is made by reaching a seed, and a first call waits for that at most the timeout. */
  private static String clusterYaml() {
    String seeds = cluster.seeds().stream()
        .map(node -> "'rediss://:${REDIS_PASSWORD}@" + node + "'")
        .collect(Collectors.joining(", ", "[", "]"));
    return "tollgate:\n  redis:\n    cluster: " + seeds
        + "\n    timeout: 5s\n    on-failure: fail-closed\n";
  }

  private static List<String> oneSubjectPerMaster() {
    List<String> subjects = new ArrayList<>();
    Set<HostAndPort> masters = new HashSet<>();
    for (int i = 0; subjects.size() < RedisCluster.MASTERS; i++) {
      String id = "tls-" + i;
      if (masters.add(cluster.masterForKey(RedisKeys.stateKey(Subject.of("tenant", id))))) {
        subjects.add(id);
      }
    }
    return subjects;
  }

  /** The RESULT lines of a {@link TlsLimiterWorker} run with the test certificate as its trust store. */
  private static List<String> runTrustingWorker(String yaml, List<String> subjects)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(certificate.trustStoreOptions());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        TlsLimiterWorker.class.getName(), yaml));
    command.addAll(subjects);
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().keySet().removeIf(name -> name.startsWith(TollgateConfigLoader.ENVIRONMENT_PREFIX));
    builder.environment().put("REDIS_PASSWORD", PASSWORD);
    Process worker = builder.start();
    String output = new String(worker.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(worker.waitFor(60, TimeUnit.SECONDS)).as("worker exited").isTrue();
    assertThat(worker.exitValue()).as("worker exit code; its output:\n%s", output).isZero();
    return output.lines().filter(line -> line.startsWith("RESULT ")).toList();
  }
}
