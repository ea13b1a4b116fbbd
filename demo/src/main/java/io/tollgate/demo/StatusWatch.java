package io.tollgate.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the agent's status page while the demo runs ({@code tollgate.status.port} on loopback,
 * where it needs no token): the report keeps its last answer, and which breaker states the page
 * showed for each provider over the run.
 */
final class StatusWatch implements Runnable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI data;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
  private final List<String> primaryStates = new ArrayList<>();
  private volatile JsonNode last;
  private volatile int answers;

  StatusWatch(int port) {
    this.data = URI.create(pageUrl(port) + "?view=status");
  }

  /** The page's address. */
  static String pageUrl(int port) {
    return "http://127.0.0.1:" + port + "/";
  }

  /** A port free now, for the agent's status page. */
  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** One read; a page that does not answer yet (the app is starting) is read again next time. */
  @Override
  public void run() {
    try {
      HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(data)
          .header("Accept", "application/json").timeout(Duration.ofSeconds(2)).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        return;
      }
      JsonNode report = JSON.readTree(response.body());
      for (JsonNode provider : report.path("providers")) {
        if (provider.path("name").asText().equals(DemoConfig.PRIMARY)) {
          synchronized (primaryStates) {
            String state = provider.path("breaker").asText();
            if (primaryStates.isEmpty() || !primaryStates.get(primaryStates.size() - 1).equals(state)) {
              primaryStates.add(state);
            }
          }
        }
      }
      last = report;
      answers++;
    } catch (IOException e) {
      // not up yet, or already gone: the next tick tries again
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The page's last answer, if it ever answered. */
  Optional<JsonNode> last() {
    return Optional.ofNullable(last);
  }

  int answers() {
    return answers;
  }

  /** The primary's breaker states the page showed, in order, repeats folded. */
  List<String> primaryStates() {
    synchronized (primaryStates) {
      return List.copyOf(primaryStates);
    }
  }
}
