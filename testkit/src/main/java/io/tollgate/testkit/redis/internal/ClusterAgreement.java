package io.tollgate.testkit.redis.internal;

import io.tollgate.testkit.redis.RedisServer;
import io.tollgate.testkit.redis.internal.ClusterNodeLine.SlotRange;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether the running nodes of a cluster agree, after a failover or a rejoin. One node's view is
 * not enough: gossip reaches nodes at different times, and a client seeded with a node that has
 * not caught up yet would be sent to the wrong place.
 */
public final class ClusterAgreement {

  private ClusterAgreement() {}

  /**
   * The master every running node names as the owner of all of {@code slots}, provided each also
   * reports {@code cluster_state:ok}; empty while they disagree.
   */
  public static Optional<ClusterNodeLine> agreedOwner(
      Collection<RedisServer> nodes, List<SlotRange> slots) {
    ClusterNodeLine agreed = null;
    for (RedisServer node : running(nodes)) {
      if (!ClusterProbe.isStateOk(node)) {
        return Optional.empty();
      }
      Optional<ClusterNodeLine> owner = ClusterProbe.view(node).stream()
          .filter(line -> line.isMaster() && !line.isFailing())
          .filter(line -> slots.stream().allMatch(range -> ownsAll(line, range)))
          .findFirst();
      if (owner.isEmpty() || (agreed != null && !agreed.id().equals(owner.get().id()))) {
        return Optional.empty();
      }
      agreed = owner.get();
    }
    return Optional.ofNullable(agreed);
  }

  /**
   * Every running node reports ok and sees every running node connected and in a settled role: a
   * replica (synced, if it is itself), or a master with slots. A rejoining former master shows up
   * as a master without slots until it has learned it lost them.
   */
  public static boolean isSettled(Collection<RedisServer> nodes) {
    List<RedisServer> running = running(nodes);
    Set<String> runningAddresses = running.stream()
        .map(node -> node.hostAndPort().toString())
        .collect(Collectors.toSet());
    for (RedisServer node : running) {
      if (!ClusterProbe.isStateOk(node)) {
        return false;
      }
      for (ClusterNodeLine line : ClusterProbe.view(node)) {
        boolean settled = line.connected() && !line.isFailing()
            && (line.isReplica() || line.slotCount() > 0);
        if (runningAddresses.contains(line.address().toString()) && !settled) {
          return false;
        }
        if (line.flags().contains("myself") && line.isReplica()
            && !ClusterProbe.isReplicationLinkUp(node)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean ownsAll(ClusterNodeLine line, SlotRange wanted) {
    return line.slotRanges().stream()
        .anyMatch(owned -> owned.first() <= wanted.first() && wanted.last() <= owned.last());
  }

  private static List<RedisServer> running(Collection<RedisServer> nodes) {
    return nodes.stream().filter(RedisServer::isRunning).toList();
  }
}
