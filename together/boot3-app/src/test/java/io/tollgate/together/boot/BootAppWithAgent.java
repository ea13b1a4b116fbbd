package io.tollgate.together.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The app's executable jar in a JVM of its own, {@code java -javaagent:... -jar}, as fleets run it. */
final class BootAppWithAgent implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Process process;
  private final Path log;
  private final int port;

  private BootAppWithAgent(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /** Starts the jar with the agent reading {@code agentConfig}, and waits until it serves. */
  static BootAppWithAgent start(Path workDir, Path agentConfig, List<String> appArguments) throws Exception {
    int port = freePort();
    Path log = workDir.resolve("app.log");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-javaagent:" + Path.of(System.getProperty("tollgate.agent.jar")).toAbsolutePath() + "=config=" + agentConfig,
        "-jar", System.getProperty("app.jar"),
        "--server.port=" + port));
    command.addAll(appArguments);
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    BootAppWithAgent app = new BootAppWithAgent(process, log, port);
    app.awaitListening();
    return app;
  }

  private void awaitListening() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (true) {
      assertThat(process.isAlive()).as("the app is running; its log:\n%s", log()).isTrue();
      try {
        get("/actuator/health");
        return; // answering, whatever its health: the test reads it
      } catch (IOException notYet) {
        // not listening yet
      }
      assertThat(System.nanoTime()).as("the app listened within 120 s; its log:\n%s", log()).isLessThan(deadline);
      TimeUnit.MILLISECONDS.sleep(200); // polling interval while the JVM starts, not a wait for a result
    }
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(local(path)).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A GET of the app's own, through the starter's filter: as {@code tenant}. */
  HttpResponse<String> get(String path, String tenant) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(local(path)).timeout(Duration.ofSeconds(10))
        .header("X-Tenant-Id", tenant).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(String path, String tenant, String json) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(local(path)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json));
    if (tenant != null) {
      request.header("X-Tenant-Id", tenant);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  String log() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  private URI local(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }
}
