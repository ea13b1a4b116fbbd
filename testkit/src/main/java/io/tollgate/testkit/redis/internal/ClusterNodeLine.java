package io.tollgate.testkit.redis.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.HostAndPort;

/**
 * One line of {@code CLUSTER NODES}: how one node sees another (or itself).
 *
 * <p>Format: {@code <id> <ip:port@busport[,hostname]> <flags> <master-id|-> <ping-sent>
 * <pong-recv> <config-epoch> <connected|disconnected> <slot or range>...}; slots being migrated
 * ({@code [5461->-id]}) are not owned yet and are skipped.
 *
 * @param id node id, 40 hex characters
 * @param address where clients reach the node
 * @param flags e.g. {@code myself}, {@code master}, {@code slave}, {@code fail?}, {@code fail}
 * @param masterId the id of its master if it is a replica, else empty
 * @param connected whether the cluster bus link to it is up
 * @param slotRanges owned slots
 */
public record ClusterNodeLine(
    String id,
    HostAndPort address,
    Set<String> flags,
    String masterId,
    boolean connected,
    List<SlotRange> slotRanges) {

  /** Hash slots {@code first} to {@code last}, both included. */
  public record SlotRange(int first, int last) {}

  public static ClusterNodeLine parse(String line) {
    String[] fields = line.trim().split(" ");
    if (fields.length < 8) {
      throw new IllegalArgumentException("Not a CLUSTER NODES line: " + line);
    }
    List<SlotRange> ranges = new ArrayList<>();
    for (int i = 8; i < fields.length; i++) {
      String slots = fields[i];
      if (slots.startsWith("[")) {
        continue;
      }
      int dash = slots.indexOf('-');
      ranges.add(dash < 0
          ? new SlotRange(Integer.parseInt(slots), Integer.parseInt(slots))
          : new SlotRange(
              Integer.parseInt(slots.substring(0, dash)),
              Integer.parseInt(slots.substring(dash + 1))));
    }
    return new ClusterNodeLine(
        fields[0],
        address(fields[1]),
        Set.of(fields[2].split(",")),
        fields[3].equals("-") ? "" : fields[3],
        fields[7].equals("connected"),
        List.copyOf(ranges));
  }

  /** Parses a whole {@code CLUSTER NODES} reply. */
  public static List<ClusterNodeLine> parseAll(String reply) {
    return reply.lines().filter(line -> !line.isBlank()).map(ClusterNodeLine::parse).toList();
  }

  public boolean isMaster() {
    return flags.contains("master");
  }

  public boolean isReplica() {
    return flags.contains("slave");
  }

  /** Flagged {@code fail} (agreed by the cluster) or {@code fail?} (suspected by this node). */
  public boolean isFailing() {
    return flags.contains("fail") || flags.contains("fail?");
  }

  /** Known by address and fully met: neither still in handshake nor without an address. */
  public boolean isEstablished() {
    return !flags.contains("handshake") && !flags.contains("noaddr");
  }

  public boolean owns(int slot) {
    return slotRanges.stream().anyMatch(range -> range.first() <= slot && slot <= range.last());
  }

  public int slotCount() {
    return slotRanges.stream().mapToInt(range -> range.last() - range.first() + 1).sum();
  }

  private static HostAndPort address(String field) {
    String hostPort = field.split("[@,]")[0]; // drop "@busport" and ",hostname"
    int colon = hostPort.lastIndexOf(':');
    String host = hostPort.substring(0, colon);
    return new HostAndPort(host, Integer.parseInt(hostPort.substring(colon + 1)));
  }
}
