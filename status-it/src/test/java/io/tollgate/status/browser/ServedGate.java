package io.tollgate.status.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.gate.Gate;
import io.tollgate.status.StatusServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A gate made from YAML, its status page served on a free port of loopback, and calls through it. */
final class ServedGate implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  final Gate gate;
  final Calls calls;
  private final StatusServer server;

  private ServedGate(Gate gate, StatusServer server) {
    this.gate = gate;
    this.calls = new Calls(gate);
    this.server = server;
  }

  /** {@code yaml} must set {@code tollgate.status.port: 0}. */
  static ServedGate of(String yaml) {
    Gate gate = Gate.create(TollgateConfigLoader.create().fromYaml(yaml));
    try {
      return new ServedGate(gate, StatusServer.start(gate));
    } catch (RuntimeException e) {
      gate.close();
      throw e;
    }
  }

  /** The page's address, {@code http://127.0.0.1:<port>/}. */
  String page() {
    return "http://127.0.0.1:" + server.port() + "/";
  }

  /** A plain GET of the JSON API with {@code authorization} (null: none), as any client sends it. */
  HttpResponse<String> data(String authorization) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(page() + "?view=status"))
        .timeout(Duration.ofSeconds(5));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The JSON API's report, read from loopback without a token. */
  JsonNode report() throws IOException, InterruptedException {
    HttpResponse<String> response = data(null);
    if (response.statusCode() != 200) {
      throw new IllegalStateException("the status API answered " + response.statusCode()
          + ": " + response.body());
    }
    return new ObjectMapper().readTree(response.body());
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      gate.close();
    }
  }
}
