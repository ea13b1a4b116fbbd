package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.redis.RedisCluster;
import io.tollgate.testkit.redis.RedisServer;
import io.tollgate.testkit.tls.TestCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code redis.verify-host} against real TLS Redis servers whose certificate names {@code
 * other.example} only, while Tollgate reaches them at {@code 127.0.0.1}. The workers' JVMs trust
 * the certificate (as an app trusts its Redis's CA), so only the host name can be wrong. A
 * certificate that does name the host is {@link RedisTlsTest}'s, which connects with the default.
 */
class RedisVerifyHostTest {

  private static final String OTHER_HOST = "other.example";

  private static TestCertificate certificate;
  private static RedisServer server;
  private static RedisCluster cluster;

  @BeforeAll
  static void start() {
    certificate = TestCertificate.forDnsName(OTHER_HOST);
    server = RedisServer.builder().tls(certificate).start();
    cluster = RedisCluster.builder().tls(certificate).start();
  }

  @AfterAll
  static void stop() {
    cluster.close();
    server.close();
    certificate.close();
  }

  @Test
  void byDefaultACertificateForAnotherHostFailsThePingWithTheHostNameMismatch() throws Exception {
    assertThat(runWorker(TlsPingWorker.class, standaloneYaml(""), List.of())).containsExactly(
        "FAILED",
        "CAUSE redis.clients.jedis.exceptions.JedisConnectionException: "
            + "javax.net.ssl.SSLHandshakeException: No subject alternative names matching IP address 127.0.0.1 found",
        "CAUSE javax.net.ssl.SSLHandshakeException: No subject alternative names matching IP address 127.0.0.1 found",
        "CAUSE java.security.cert.CertificateException: No subject alternative names matching IP address 127.0.0.1 found");
  }

  @Test
  void verifyHostFalseConnectsDespiteACertificateForAnotherHost() throws Exception {
    assertThat(runWorker(TlsPingWorker.class, standaloneYaml("    verify-host: false\n"), List.of()))
        .containsExactly("PING PONG");
  }

  @Test
  void byDefaultAClusterWhoseCertificatesNameAnotherHostDegradesEveryDecision() throws Exception {
    assertThat(runWorker(TlsLimiterWorker.class, clusterYaml(""), List.of("cluster-default")))
        .containsExactly("WARNING: Redis limiter unreachable: JedisClusterOperationException: Could not"
            + " initialize cluster slots cache. (JedisConnectionException: javax.net.ssl.SSLHandshakeException:"
            + " No subject alternative names matching IP address 127.0.0.1 found); deciding to deny"
            + " (fail-closed) until it answers",
            "RESULT cluster-default 0 8");
  }

  @Test
  void verifyHostFalseLimitsExactlyOnAClusterWhoseCertificatesNameAnotherHost() throws Exception {
    assertThat(runWorker(TlsLimiterWorker.class, clusterYaml("    verify-host: false\n"),
        List.of("cluster-unverified"))).containsExactly("RESULT cluster-unverified 5 0");
  }

  private static String standaloneYaml(String extra) {
    return "tollgate:\n  redis:\n    url: rediss://127.0.0.1:" + server.port()
        + "\n    timeout: 2s\n    on-failure: fail-closed\n" + extra;
  }

  /** A Cluster client is made by reaching a seed, and a first call waits for that at most the timeout. */
  private static String clusterYaml(String extra) {
    String seeds = cluster.seeds().stream()
        .map(node -> "'rediss://" + node + "'")
        .collect(Collectors.joining(", ", "[", "]"));
    return "tollgate:\n  redis:\n    cluster: " + seeds
        + "\n    timeout: 5s\n    on-failure: fail-closed\n" + extra;
  }

  /**
   * The output lines of {@code worker}, its log's warnings included, run with the test certificate
   * as its trust store.
   */
  private static List<String> runWorker(Class<?> worker, String yaml, List<String> arguments)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(certificate.trustStoreOptions());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), worker.getName(), yaml));
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith(TollgateConfigLoader.ENVIRONMENT_PREFIX));
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("worker exited").isTrue();
    assertThat(process.exitValue()).as("worker exit code; its output:\n%s", output).isZero();
    return output.lines().filter(line -> line.startsWith("RESULT ") || line.startsWith("WARNING: ") || line.startsWith("PING ")
        || line.startsWith("FAILED") || line.startsWith("CAUSE ")).toList();
  }
}
