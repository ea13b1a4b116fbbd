package io.tollgate.testkit.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A port on loopback that accepts connections and never answers: a Redis node behind a black
 * hole, as a client sees it. Every command sent to it waits for the client's socket timeout.
 *
 * <pre>{@code
 * try (UnansweringNode seed = UnansweringNode.start()) {
 *   String address = seed.address(); // 127.0.0.1:<port>
 * }
 * }</pre>
 */
public final class UnansweringNode implements AutoCloseable {

  private final ServerSocket server;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  private UnansweringNode(ServerSocket server) {
    this.server = server;
    this.acceptor = new Thread(this::acceptForever, "unanswering-node-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public static UnansweringNode start() {
    try {
      return new UnansweringNode(new ServerSocket(0, 512, InetAddress.getLoopbackAddress()));
    } catch (IOException e) {
      throw new UncheckedIOException("could not open a port on loopback", e);
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  /** {@code 127.0.0.1:<port>}. */
  public String address() {
    return "127.0.0.1:" + port();
  }

  /** Connections accepted so far. */
  public int connections() {
    return accepted.size();
  }

  private void acceptForever() {
    while (!server.isClosed()) {
      try {
        accepted.add(server.accept()); // kept open and never read: the client hears nothing
      } catch (IOException closed) {
        return;
      }
    }
  }

  @Override
  public void close() {
    try {
      server.close();
      for (Socket socket : accepted) {
        socket.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
