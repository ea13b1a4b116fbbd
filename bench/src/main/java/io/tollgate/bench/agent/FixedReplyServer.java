package io.tollgate.bench.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The provider of the latency runs: the JDK's HttpServer on 127.0.0.1 answering every request
 * with the same OpenAI chat completion (usage included), on its one dispatcher thread. The
 * testkit's MockLlmServer parses, journals and token-counts every request on Jetty, which costs
 * more than the microseconds to be isolated and adds its own noise; this server does next to
 * nothing, so a call's time is the client's, the agent's and the loopback's.
 */
final class FixedReplyServer implements AutoCloseable {

  static final String REPLY = """
      {"id":"chatcmpl-bench","object":"chat.completion","created":1767225600,"model":"gpt-4o",\
      "choices":[{"index":0,"message":{"role":"assistant","content":"Hello there, bench."},\
      "finish_reason":"stop"}],\
      "usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}""";

  private final HttpServer server;

  private FixedReplyServer(HttpServer server) {
    this.server = server;
  }

  static FixedReplyServer start() throws IOException {
    // without TCP_NODELAY each answer waits for the client's delayed ACK (about 40 ms on Linux)
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server = HttpServer.create(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
    byte[] reply = REPLY.getBytes(StandardCharsets.UTF_8);
    server.createContext("/", exchange -> answer(exchange, reply));
    server.start();
    return new FixedReplyServer(server);
  }

  private static void answer(HttpExchange exchange, byte[] reply) throws IOException {
    try (InputStream in = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
      in.transferTo(OutputStream.nullOutputStream());
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, reply.length);
      out.write(reply);
    }
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
