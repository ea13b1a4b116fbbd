package io.tollgate.testkit.redis.internal;

import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

/**
 * Turns freshly started, empty cluster-enabled nodes into a working Redis Cluster with plain
 * commands, the way {@code redis-cli --cluster create} does, so no redis-cli is needed.
 *
 * <p>Steps: distinct config epochs, slots split evenly over the masters with {@code ADDSLOTS}
 * (not {@code ADDSLOTSRANGE}, which Redis 6.2 lacks), {@code MEET} from the first node, wait until
 * every node knows every other, {@code REPLICATE}, then wait until every node reports {@code
 * cluster_state:ok} with the intended roles and every replica has synced.
 */
public final class ClusterFormation {

  public static final int SLOTS = 16_384;

  private final List<RedisServer> masters;
  private final List<RedisServer> replicas;
  private final List<RedisServer> all;
  private final Duration timeout;
  private final long deadline;
  private final Map<HostAndPort, String> ids = new LinkedHashMap<>();

  private ClusterFormation(
      List<RedisServer> masters, List<RedisServer> replicas, Duration timeout) {
    this.masters = List.copyOf(masters);
    this.replicas = List.copyOf(replicas);
    this.all = new ArrayList<>(masters);
    this.all.addAll(replicas);
    this.timeout = timeout;
    this.deadline = System.nanoTime() + timeout.toNanos();
  }

  /**
   * Forms the cluster: {@code replicas.get(i)} becomes the replica of {@code masters.get(i)}.
   *
   * @return the node id of every node, by address
   */
  public static Map<HostAndPort, String> form(
      List<RedisServer> masters, List<RedisServer> replicas, Duration timeout) {
    if (masters.isEmpty() || replicas.size() != masters.size()) {
      throw new IllegalArgumentException(
          "need one replica per master, was " + masters.size() + " masters and "
              + replicas.size() + " replicas");
    }
    return new ClusterFormation(masters, replicas, timeout).run();
  }

  /** The first slot of master {@code index} of {@code masterCount}: even split, as redis-cli. */
  public static int firstSlot(int index, int masterCount) {
    return (int) Math.round((double) index * SLOTS / masterCount);
  }

  private Map<HostAndPort, String> run() {
    for (int i = 0; i < all.size(); i++) {
      try (Jedis jedis = all.get(i).jedis()) {
        // Distinct epochs before the nodes meet, as redis-cli does: otherwise every master starts
        // at epoch 0 and the cluster resolves the collisions one bump per heartbeat.
        jedis.sendCommand(Protocol.Command.CLUSTER, "SET-CONFIG-EPOCH", String.valueOf(i + 1));
        ids.put(all.get(i).hostAndPort(), jedis.clusterMyId());
      }
    }
    for (int i = 0; i < masters.size(); i++) {
      int first = firstSlot(i, masters.size());
      int last = firstSlot(i + 1, masters.size()) - 1;
      try (Jedis jedis = masters.get(i).jedis()) {
        jedis.clusterAddSlots(IntStream.rangeClosed(first, last).toArray());
      }
    }
    meetTheOthersNotKnown();
    await("every node to know all " + all.size() + " nodes", () -> {
      if (everyNodeKnowsEveryOther()) {
        return true;
      }
      // Redis forgets a node whose handshake outlasts cluster-node-timeout (a loaded machine) and
      // never tries again: meet it again, or the cluster never forms
      meetTheOthersNotKnown();
      return false;
    });
    for (int i = 0; i < replicas.size(); i++) {
      try (Jedis jedis = replicas.get(i).jedis()) {
        jedis.clusterReplicate(ids.get(masters.get(i).hostAndPort()));
      }
    }
    await("cluster_state:ok with " + masters.size() + " masters and " + replicas.size()
        + " synced replicas on every node", this::isSteady);
    return Map.copyOf(ids);
  }

  /** The first node meets every other node it does not list yet, handshakes in progress included. */
  private void meetTheOthersNotKnown() {
    RedisServer first = all.get(0);
    Set<HostAndPort> listed = new HashSet<>();
    ClusterProbe.view(first).forEach(line -> listed.add(line.address()));
    try (Jedis jedis = first.jedis()) {
      for (RedisServer other : all.subList(1, all.size())) {
        if (!listed.contains(other.hostAndPort())) {
          jedis.clusterMeet(RedisServer.HOST, other.port());
        }
      }
    }
  }

  private boolean everyNodeKnowsEveryOther() {
    for (RedisServer node : all) {
      List<ClusterNodeLine> view = ClusterProbe.view(node);
      boolean complete = view.size() == all.size()
          && view.stream().allMatch(line -> line.isEstablished() && ids.containsValue(line.id()));
      if (!complete) {
        return false;
      }
    }
    return true;
  }

  private boolean isSteady() {
    for (RedisServer node : all) {
      if (!ClusterProbe.isStateOk(node) || !hasIntendedRoles(ClusterProbe.view(node))) {
        return false;
      }
    }
    return replicas.stream().allMatch(ClusterProbe::isReplicationLinkUp);
  }

  private boolean hasIntendedRoles(List<ClusterNodeLine> view) {
    if (view.size() != all.size()) {
      return false;
    }
    for (ClusterNodeLine line : view) {
      if (!line.connected() || line.isFailing()) {
        return false;
      }
      int masterIndex = indexOf(masters, line.id());
      int replicaIndex = indexOf(replicas, line.id());
      if (masterIndex < 0 && replicaIndex < 0) {
        return false; // a stranger: not a cluster we formed
      }
      boolean asIntended = masterIndex >= 0
          ? line.isMaster()
              && line.slotCount() == firstSlot(masterIndex + 1, masters.size())
                  - firstSlot(masterIndex, masters.size())
          : line.isReplica()
              && line.masterId().equals(ids.get(masters.get(replicaIndex).hostAndPort()));
      if (!asIntended) {
        return false;
      }
    }
    return true;
  }

  private int indexOf(List<RedisServer> nodes, String id) {
    for (int i = 0; i < nodes.size(); i++) {
      if (ids.get(nodes.get(i).hostAndPort()).equals(id)) {
        return i;
      }
    }
    return -1;
  }

  private void await(String what, Supplier<Boolean> condition) {
    Duration remaining = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    Await.untilTrue(
        what + " (what was left of the formation timeout of " + timeout.toMillis() + " ms)",
        remaining,
        condition,
        () -> ClusterProbe.describe(all));
  }
}
