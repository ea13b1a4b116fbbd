package io.tollgate.testkit.redis.internal;

import io.tollgate.testkit.redis.RedisFixtureException;
import io.tollgate.testkit.redis.RedisServer;
import java.util.Collection;
import java.util.List;
import redis.clients.jedis.Jedis;

/**
 * Asks Cluster nodes how they see the cluster, for the bounded waits of formation and failover,
 * and describes all of them when a wait times out.
 */
public final class ClusterProbe {

  private ClusterProbe() {}

  /** {@code CLUSTER NODES} of {@code node}, parsed; fails fast if the node's process is gone. */
  public static List<ClusterNodeLine> view(RedisServer node) {
    requireRunning(node);
    try (Jedis jedis = node.jedis()) {
      return ClusterNodeLine.parseAll(jedis.clusterNodes());
    }
  }

  /** Whether {@code node} reports {@code cluster_state:ok}. */
  public static boolean isStateOk(RedisServer node) {
    requireRunning(node);
    try (Jedis jedis = node.jedis()) {
      return RedisInfo.field(jedis.clusterInfo(), "cluster_state").equals("ok");
    }
  }

  /** Whether {@code replica}'s replication link to its master is up (initial sync done). */
  public static boolean isReplicationLinkUp(RedisServer replica) {
    requireRunning(replica);
    try (Jedis jedis = replica.jedis()) {
      String replication = jedis.info("replication");
      return RedisInfo.field(replication, "role").equals("slave")
          && RedisInfo.field(replication, "master_link_status").equals("up");
    }
  }

  /** What every node says about the cluster, or the tail of its log if it is not running. */
  public static String describe(Collection<RedisServer> nodes) {
    StringBuilder text = new StringBuilder("Cluster as each node sees it:");
    for (RedisServer node : nodes) {
      text.append("\n--- ").append(node.hostAndPort());
      if (!node.isRunning()) {
        text.append(" (not running); log tail:\n").append(node.logTail());
        continue;
      }
      try (Jedis jedis = node.jedis()) {
        text.append(" cluster_state:")
            .append(RedisInfo.field(jedis.clusterInfo(), "cluster_state"))
            .append('\n')
            .append(jedis.clusterNodes().strip());
      } catch (RuntimeException e) {
        text.append(" unreachable: ").append(e).append("; log tail:\n").append(node.logTail());
      }
    }
    return text.toString();
  }

  private static void requireRunning(RedisServer node) {
    if (!node.isRunning()) {
      throw new RedisFixtureException(
          "Cluster node " + node.hostAndPort() + " is not running; its log:\n" + node.logTail());
    }
  }
}
