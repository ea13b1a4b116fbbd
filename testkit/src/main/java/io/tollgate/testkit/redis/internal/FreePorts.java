package io.tollgate.testkit.redis.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks loopback ports that are free right now. "Right now" is all anyone can promise: another
 * process may take the port before {@code redis-server} binds it, which is why the fixtures retry
 * on "Address already in use".
 *
 * <p>Ports handed out are remembered for the life of the JVM, so servers started in parallel here
 * never race each other for the same port; only foreign processes can.
 */
public final class FreePorts {

  /** A Cluster node also listens on {@code port + 10000}, its cluster bus. */
  public static final int CLUSTER_BUS_OFFSET = 10_000;

  // Below Linux's default ephemeral range (32768-60999), bus ports included, so the kernel never
  // gives these to outgoing connections; above the well-known and most registered service ports.
  private static final int CLUSTER_PORT_MIN = 12_000;
  private static final int CLUSTER_PORT_MAX = 22_700;
  private static final int MAX_PROBES = 1_000;

  private static final InetAddress LOOPBACK = loopback();
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  /** A free loopback port chosen by the kernel, for a standalone server. */
  public static int forStandalone() {
    for (int probe = 0; probe < MAX_PROBES; probe++) {
      int port = kernelChosenPort();
      if (HANDED_OUT.add(port)) {
        return port;
      }
    }
    throw new IllegalStateException("No free loopback port after " + MAX_PROBES + " probes");
  }

  /** A port that is free together with its cluster bus port {@code port + 10000}. */
  public static int forClusterNode() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int probe = 0; probe < MAX_PROBES; probe++) {
      int port = random.nextInt(CLUSTER_PORT_MIN, CLUSTER_PORT_MAX + 1);
      if (isFree(port) && isFree(port + CLUSTER_BUS_OFFSET) && HANDED_OUT.add(port)) {
        return port;
      }
    }
    throw new IllegalStateException(
        "No free loopback port pair (p, p+10000) with p in "
            + CLUSTER_PORT_MIN + "-" + CLUSTER_PORT_MAX + " after " + MAX_PROBES + " probes");
  }

  /** Makes {@code port} available again once the server that had it is closed for good. */
  public static void release(int port) {
    HANDED_OUT.remove(port);
  }

  public static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true); // redis-server binds with SO_REUSEADDR too: same rules
      socket.bind(new InetSocketAddress(LOOPBACK, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static InetAddress loopback() {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, 1}); // what redis-server binds
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int kernelChosenPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, LOOPBACK)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot bind any loopback port", e);
    }
  }
}
