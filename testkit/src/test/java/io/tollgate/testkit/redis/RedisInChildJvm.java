package io.tollgate.testkit.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * The JVM that {@link NoOrphanProcessTest} kills: starts a server or a cluster, reports the ports
 * and PIDs on stdout, then either hangs until it is killed or exits without closing anything.
 *
 * <p>Usage: {@code RedisInChildJvm standalone|cluster hang|exit}
 */
public final class RedisInChildJvm {

  /** Prefix of the one stdout line the parent waits for. */
  static final String READY = "READY";

  private RedisInChildJvm() {}

  public static void main(String[] args) throws InterruptedException {
    List<Long> ports = new ArrayList<>();
    List<Long> pids = new ArrayList<>();
    List<String> directories = new ArrayList<>();
    if (args[0].equals("cluster")) {
      RedisCluster cluster = RedisCluster.start();
      cluster.nodes().forEach(node -> {
        ports.add((long) node.getPort());
        pids.add(cluster.node(node).pid());
        directories.add(cluster.node(node).directory().toString());
      });
    } else {
      RedisServer server = RedisServer.start();
      ports.add((long) server.port());
      pids.add(server.pid());
      directories.add(server.directory().toString());
    }
    System.out.println(READY + " ports=" + join(ports) + " pids=" + join(pids)
        + " directories=" + String.join(",", directories));
    System.out.flush();
    if (args[1].equals("exit")) {
      System.exit(0); // nothing closed: only the shutdown hook stands between us and orphans
    }
    new CountDownLatch(1).await(); // until SIGKILL
  }

  private static String join(List<Long> numbers) {
    return numbers.stream().map(String::valueOf).collect(Collectors.joining(","));
  }
}
