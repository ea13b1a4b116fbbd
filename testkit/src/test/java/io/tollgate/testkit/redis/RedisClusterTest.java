package io.tollgate.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.testkit.redis.internal.RedisInfo;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.exceptions.JedisMovedDataException;
import redis.clients.jedis.util.JedisClusterCRC16;

/** One cluster for the whole class: these tests only read the topology and write keys. */
class RedisClusterTest {

  @RegisterExtension static final RedisClusterExtension redis = RedisClusterExtension.ofDefaults();

  private RedisCluster cluster;

  @BeforeEach
  void emptyCluster() {
    cluster = redis.cluster();
    cluster.flushAll();
  }

  @Test
  void formsThreeMastersEachWithOneReplica() {
    List<HostAndPort> masters = cluster.masters();
    List<HostAndPort> replicas = cluster.replicas();

    assertThat(cluster.nodes()).hasSize(6).doesNotHaveDuplicates();
    assertThat(cluster.seeds()).containsExactlyElementsOf(cluster.nodes());
    assertThat(masters).containsExactlyElementsOf(cluster.nodes().subList(0, 3));
    assertThat(replicas).containsExactlyInAnyOrderElementsOf(cluster.nodes().subList(3, 6));
    for (int i = 0; i < 3; i++) {
      assertThat(cluster.replicasOf(masters.get(i))).containsExactly(cluster.nodes().get(3 + i));
    }
    assertThat(cluster.nodes()).allMatch(node -> node.getHost().equals("127.0.0.1"));
  }

  @Test
  void everyNodeReportsStateOkWithAllSlotsCovered() {
    for (HostAndPort node : cluster.nodes()) {
      try (Jedis jedis = cluster.node(node).jedis()) {
        Map<String, String> info = RedisInfo.parse(jedis.clusterInfo());
        assertThat(info)
            .as("CLUSTER INFO of %s", node)
            .containsEntry("cluster_state", "ok")
            .containsEntry("cluster_slots_assigned", "16384")
            .containsEntry("cluster_slots_ok", "16384")
            .containsEntry("cluster_slots_pfail", "0")
            .containsEntry("cluster_slots_fail", "0")
            .containsEntry("cluster_known_nodes", "6")
            .containsEntry("cluster_size", "3");
      }
    }
  }

  @Test
  void splitsTheSlotsLikeRedisCli() {
    List<HostAndPort> masters = cluster.masters();

    assertThat(cluster.masterForSlot(0)).isEqualTo(masters.get(0));
    assertThat(cluster.masterForSlot(5460)).isEqualTo(masters.get(0));
    assertThat(cluster.masterForSlot(5461)).isEqualTo(masters.get(1));
    assertThat(cluster.masterForSlot(10922)).isEqualTo(masters.get(1));
    assertThat(cluster.masterForSlot(10923)).isEqualTo(masters.get(2));
    assertThat(cluster.masterForSlot(16383)).isEqualTo(masters.get(2));
    assertThatThrownBy(() -> cluster.masterForSlot(16384))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("slot must be in 0-16383, was 16384");
  }

  @Test
  void clientSpreadsKeysOverAllMastersAndReadsThemBack() {
    List<String> keys = IntStream.range(0, 1_000).mapToObj(i -> "key:" + i).toList();

    try (RedisClusterClient client = cluster.client()) {
      keys.forEach(key -> client.set(key, "value-of-" + key));

      assertThat(keys).allMatch(key -> client.get(key).equals("value-of-" + key));
    }
    Map<HostAndPort, Long> expectedPerMaster = keys.stream()
        .collect(Collectors.groupingBy(cluster::masterForKey, Collectors.counting()));
    Map<HostAndPort, Long> actualPerMaster = new HashMap<>();
    for (HostAndPort master : cluster.masters()) {
      try (Jedis jedis = cluster.node(master).jedis()) {
        actualPerMaster.put(master, jedis.dbSize());
      }
    }
    assertThat(expectedPerMaster).hasSize(3);
    assertThat(actualPerMaster).isEqualTo(expectedPerMaster);
  }

  @Test
  void hashTaggedKeysLiveOnMasterForKey() {
    String requests = "{tenant:7}:requests";
    String tokens = "{tenant:7}:tokens";
    HostAndPort owner = cluster.masterForKey(requests);

    try (RedisClusterClient client = cluster.client()) {
      client.set(requests, "3");
      client.set(tokens, "1200");
    }

    assertThat(JedisClusterCRC16.getSlot(requests))
        .isEqualTo(JedisClusterCRC16.getSlot("tenant:7"));
    assertThat(cluster.masterForKey(tokens)).isEqualTo(owner);
    try (Jedis jedis = cluster.node(owner).jedis()) {
      assertThat(jedis.mget(requests, tokens)).containsExactly("3", "1200");
    }
    HostAndPort other = cluster.masters().stream().filter(m -> !m.equals(owner)).findFirst().get();
    try (Jedis jedis = cluster.node(other).jedis()) {
      assertThatThrownBy(() -> jedis.get(requests))
          .isInstanceOf(JedisMovedDataException.class)
          .hasMessage("MOVED " + JedisClusterCRC16.getSlot(requests) + " " + owner);
    }
  }

  @Test
  void runsMultiKeyLuaOnTheSlotOfItsHashTag() {
    try (RedisClusterClient client = cluster.client()) {
      Object reply = client.eval(
          "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('INCRBY', KEYS[2], ARGV[1])",
          List.of("{user:1}:a", "{user:1}:b"),
          List.of("5"));

      assertThat(reply).isEqualTo(5L);
      assertThat(client.get("{user:1}:a")).isEqualTo("5");
    }
  }

  @Test
  void flushScriptsForgetsScriptsOnEveryNode() {
    String sha = null;
    for (HostAndPort node : cluster.nodes()) {
      try (Jedis jedis = cluster.node(node).jedis()) {
        sha = jedis.scriptLoad("return 'tollgate'");
      }
    }

    cluster.flushScripts();

    for (HostAndPort node : cluster.nodes()) {
      try (Jedis jedis = cluster.node(node).jedis()) {
        assertThat(jedis.scriptExists(sha)).as("script on %s", node).isFalse();
      }
    }
  }

  @Test
  void rejectsNodesThatAreNotPartOfIt() {
    HostAndPort stranger = new HostAndPort("127.0.0.1", 1);

    assertThatThrownBy(() -> cluster.node(stranger))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node must be one of " + cluster.nodes() + ", was 127.0.0.1:1");
    assertThatThrownBy(() -> cluster.killMaster(cluster.replicas().get(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("master must be a running master serving slots");
    assertThat(Set.copyOf(cluster.masters())).hasSize(3);
  }

  @Test
  void failsWithEveryNodesViewAndLeavesNoProcessWhenFormationTimesOut() {
    Set<Long> before = descendantPids();

    // Masters refuse cluster_state:ok for their first 2 s, so 1.5 s can never be enough.
    RedisCluster.Builder impatient =
        RedisCluster.builder().formationTimeout(Duration.ofMillis(1_500));

    assertThatThrownBy(impatient::start)
        .isInstanceOf(RedisFixtureException.class)
        .hasMessageStartingWith("Timed out after ")
        .hasMessageContaining("Cluster as each node sees it:")
        .hasMessageContaining("cluster_state:");

    assertThat(descendantPids()).isSubsetOf(before);
  }

  @Test
  void awaitPromotionRequiresAMasterKilledWithKillMaster() {
    HostAndPort master = cluster.masters().get(1);

    assertThatThrownBy(() -> cluster.awaitPromotion(master))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(master + " was not killed with killMaster()");
  }

  private static Set<Long> descendantPids() {
    return ProcessHandle.current().descendants()
        .map(ProcessHandle::pid)
        .collect(Collectors.toSet());
  }
}
