package io.tollgate.agent;

import io.tollgate.config.StatusConfig;
import io.tollgate.gate.Gate;
import io.tollgate.status.StatusServer;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The status page on a port of its own ({@code tollgate.status.port}): an app the agent is attached
 * to may have no web server to serve it from. A port that cannot be bound (in use, not allowed)
 * costs the page, not the gating: without {@code strict} the agent says so and runs on.
 */
final class AgentStatusPage {

  private AgentStatusPage() {}

  /**
   * Serves {@code gate}'s page when its configuration has a port; empty when it has none, or when
   * the port cannot be bound without {@code strict} (said on {@code log}).
   *
   * @throws UncheckedIOException under {@code strict}, when the port cannot be bound
   */
  static Optional<StatusServer> start(Gate gate, boolean strict, Consumer<String> log) {
    StatusConfig status = gate.config().status();
    if (status.port().isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(StatusServer.start(gate));
    } catch (UncheckedIOException e) {
      if (strict) {
        throw e;
      }
      // its message names the address and tollgate.status.port
      log.accept("no status page, the gating runs on: " + e.getMessage());
      return Optional.empty();
    }
  }

  /** The page's URL; an IPv6 address in brackets. */
  static String address(String bind, int port) {
    String host = bind.contains(":") ? "[" + bind + "]" : bind;
    return "http://" + host + ":" + port + "/";
  }
}
