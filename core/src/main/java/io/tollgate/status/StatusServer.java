package io.tollgate.status;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tollgate.config.StatusConfig;
import io.tollgate.gate.Gate;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The status page on a port of its own ({@code tollgate.status.port}, {@code bind}): what the agent
 * serves, since an app it is attached to may have no web server. One daemon thread answers; the
 * page is at {@code /}, its data at {@code /?view=status}, the live overrides at {@code
 * /?view=overrides}; every other path is 404.
 */
public final class StatusServer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService executor;

  private StatusServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Serves {@code gate}'s page where its {@code tollgate.status} says.
   *
   * @throws IllegalStateException when no {@code status.port} is configured
   * @throws UncheckedIOException when the port cannot be bound (in use, not allowed)
   */
  public static StatusServer start(Gate gate) {
    StatusConfig config = gate.config().status();
    int port = config.port().orElseThrow(() ->
        new IllegalStateException("tollgate.status.port is not set"));
    StatusPage page = StatusPage.of(gate);
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(config.bind(), port), 16);
    } catch (IOException e) {
      throw new UncheckedIOException("the status page cannot listen on " + config.bind() + ":" + port
          + " (tollgate.status.port): " + e.getMessage(), e);
    }
    ExecutorService executor = Executors.newSingleThreadExecutor(task -> {
      Thread thread = new Thread(task, "tollgate-status");
      thread.setDaemon(true);
      return thread;
    });
    server.setExecutor(executor);
    server.createContext("/", exchange -> answer(page, exchange));
    server.start();
    return new StatusServer(server, executor);
  }

  /** The port it listens on (the one chosen when {@code status.port} is 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  private static void answer(StatusPage page, HttpExchange exchange) throws IOException {
    try (exchange) {
      StatusPage.Response response;
      if (!exchange.getRequestURI().getRawPath().equals("/")) {
        response = new StatusPage.Response(404, Map.of("Content-Type", "text/plain"),
            "not found\n".getBytes(StandardCharsets.US_ASCII));
      } else {
        var headers = exchange.getRequestHeaders();
        response = page.handle(new StatusPage.Request(exchange.getRequestMethod(),
            exchange.getRequestURI().getRawQuery(), headers.getFirst("Accept"),
            headers.getFirst("Authorization"), exchange.getRemoteAddress().getAddress(),
            headers.containsKey("Forwarded") || headers.containsKey("X-Forwarded-For"),
            headers.getFirst("Content-Type"), exchange.getRequestBody()));
      }
      response.headers().forEach(exchange.getResponseHeaders()::set);
      exchange.sendResponseHeaders(response.status(), response.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(response.body());
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
