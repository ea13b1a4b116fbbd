package io.tollgate.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.testkit.redis.internal.RedisInfo;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.util.JedisClusterCRC16;

/** A cluster per test: these tests kill nodes. */
class RedisClusterFailoverTest {

  @AutoClose private final RedisCluster cluster = RedisCluster.start();

  @Test
  void killingAMasterPromotesItsReplicaAndItsSlotServesAgain() {
    String key = "{failover}:tokens";
    int slot = JedisClusterCRC16.getSlot(key);
    HostAndPort master = cluster.masterForSlot(slot);
    HostAndPort replica = cluster.replicasOf(master).get(0);
    try (RedisClusterClient client = cluster.client()) {
      client.set(key, "before");
      try (Jedis jedis = cluster.node(master).jedis()) {
        assertThat(jedis.waitReplicas(1, 5_000)).isEqualTo(1L); // the replica has the write
      }

      cluster.killMaster(master);
      HostAndPort promoted = cluster.awaitPromotion(master);

      assertThat(promoted).isEqualTo(replica);
      assertThat(cluster.masterForSlot(slot)).isEqualTo(promoted);
      assertThat(cluster.masters()).hasSize(3).contains(promoted).doesNotContain(master);
      assertThat(client.get(key)).isEqualTo("before");
      assertThat(client.set(key, "after")).isEqualTo("OK");
      assertThat(client.get(key)).isEqualTo("after");
    }
    for (HostAndPort node : cluster.seeds()) {
      try (Jedis jedis = cluster.node(node).jedis()) {
        assertThat(RedisInfo.field(jedis.clusterInfo(), "cluster_state")).isEqualTo("ok");
      }
    }
  }

  @Test
  void aRestartedFormerMasterRejoinsAsReplicaOfItsSuccessor() {
    HostAndPort master = cluster.masterForSlot(0);
    cluster.killMaster(master);
    HostAndPort promoted = cluster.awaitPromotion(master);

    cluster.restartNode(master);

    assertThat(cluster.node(master).isRunning()).isTrue();
    assertThat(cluster.replicasOf(promoted)).containsExactly(master);
    assertThat(cluster.masters()).hasSize(3).contains(promoted).doesNotContain(master);
    assertThat(cluster.seeds()).hasSize(6);
  }

  @Test
  void closeLeavesNoProcessAndFreesEveryPort() {
    List<Long> pids = cluster.nodes().stream().map(node -> cluster.node(node).pid()).toList();

    cluster.close();

    assertThat(pids).hasSize(6).allMatch(pid -> ProcessHandle.of(pid).isEmpty());
    for (HostAndPort node : cluster.nodes()) {
      assertThatThrownBy(() -> connect(node.getPort())).isInstanceOf(ConnectException.class);
      assertThatThrownBy(() -> connect(node.getPort() + 10_000))
          .as("cluster bus of %s", node)
          .isInstanceOf(ConnectException.class);
    }
  }

  private static void connect(int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
    }
  }
}
