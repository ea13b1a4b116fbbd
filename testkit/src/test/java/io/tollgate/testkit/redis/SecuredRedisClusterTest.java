package io.tollgate.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.testkit.redis.internal.RedisInfo;
import io.tollgate.testkit.tls.TestCertificate;
import java.net.URI;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A cluster whose nodes require a password and speak only TLS: formation signs in and trusts the
 * test certificate, replicas sync with masterauth over TLS, and the bus runs over TLS.
 */
class SecuredRedisClusterTest {

  private static final String PASSWORD = "cluster-s3cret";

  private static TestCertificate certificate;
  private static RedisCluster cluster;

  @BeforeAll
  static void start() {
    certificate = TestCertificate.generate();
    cluster = RedisCluster.builder().password(PASSWORD).tls(certificate).start();
  }

  @AfterAll
  static void stop() {
    cluster.close();
    certificate.close();
  }

  @Test
  void formsWithEveryReplicaSyncedThroughMasterauthOverTls() {
    for (HostAndPort replica : cluster.nodes().subList(3, 6)) {
      try (Jedis jedis = cluster.node(replica).jedis()) {
        String replication = jedis.info("replication");
        assertThat(RedisInfo.field(replication, "role")).isEqualTo("slave");
        assertThat(RedisInfo.field(replication, "master_link_status")).isEqualTo("up");
      }
    }
    try (Jedis jedis = cluster.node(cluster.nodes().get(0)).jedis()) {
      assertThat(RedisInfo.field(jedis.clusterInfo(), "cluster_state")).isEqualTo("ok");
    }
  }

  @Test
  void itsClientSignsInAndFollowsTheSlotsToTlsPorts() {
    try (RedisClusterClient client = cluster.client()) {
      IntStream.range(0, 30).forEach(i -> client.set("key-" + i, "v" + i));
      assertThat(IntStream.range(0, 30).mapToObj(i -> client.get("key-" + i)).toList())
          .isEqualTo(IntStream.range(0, 30).mapToObj(i -> "v" + i).toList());
    }
    List<Integer> advertised;
    try (Jedis jedis = cluster.node(cluster.nodes().get(0)).jedis()) {
      advertised = jedis.clusterSlots().stream()
          .map(range -> (List<?>) ((List<?>) range).get(2)) // [host, port, id] of the master
          .map(master -> ((Long) master.get(1)).intValue())
          .toList();
    }
    assertThat(advertised).containsExactlyInAnyOrderElementsOf(
        cluster.masters().stream().map(HostAndPort::getPort).toList());
  }

  @Test
  void refusesAClientWithoutThePasswordOrWithoutTls() {
    HostAndPort node = cluster.nodes().get(0);
    assertThatThrownBy(() -> ping(node, DefaultJedisClientConfig.builder()
            .ssl(true).sslSocketFactory(certificate.socketFactory()).build()))
        .isInstanceOf(JedisDataException.class)
        .hasMessageStartingWith("NOAUTH");
    assertThatThrownBy(() -> ping(node, DefaultJedisClientConfig.builder()
            .password(PASSWORD).socketTimeoutMillis(1_000).build()))
        .isInstanceOf(JedisConnectionException.class);
  }

  private static String ping(HostAndPort node, JedisClientConfig config) {
    try (Jedis jedis = new Jedis(node, config)) { // connects and signs in here
      return jedis.ping();
    }
  }

  @Test
  void seedUrisCarrySchemeAndPassword() {
    assertThat(cluster.seedUris()).hasSize(6).allSatisfy(uri -> {
      assertThat(uri.getScheme()).isEqualTo("rediss");
      assertThat(uri.getUserInfo()).isEqualTo(":" + PASSWORD);
    });
    assertThat(cluster.seedUris().stream().map(URI::getPort).toList())
        .isEqualTo(cluster.nodes().stream().map(HostAndPort::getPort).toList());
    assertThat(cluster.password()).contains(PASSWORD);
    assertThat(cluster.tls()).containsSame(certificate);
  }
}
