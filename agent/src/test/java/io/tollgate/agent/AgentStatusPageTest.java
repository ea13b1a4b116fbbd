package io.tollgate.agent;

import static io.tollgate.agent.HelperConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.gate.Gate;
import io.tollgate.status.StatusServer;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The agent's status server: served when configured, and what a port in use does. */
class AgentStatusPageTest {

  private final List<String> log = new ArrayList<>();

  @Test
  void servesNothingWithoutAPort() {
    try (Gate gate = Gate.create(config(withStatus("")))) {
      assertThat(AgentStatusPage.start(gate, false, log::add)).isEmpty();
      assertThat(log).isEmpty();
    }
  }

  @Test
  void servesThePageOnTheConfiguredPort() throws Exception {
    try (Gate gate = Gate.create(config(withStatus("""
          status:
            port: 0
        """)));
        StatusServer server = AgentStatusPage.start(gate, false, log::add).orElseThrow()) {
      HttpResponse<String> data = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create(AgentStatusPage.address("127.0.0.1", server.port()) + "?view=status")).build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(data.statusCode()).isEqualTo(200);
      assertThat(data.body()).contains("\"providers\":[{\"name\":\"openai\",\"api\":\"openai\"");
      assertThat(log).isEmpty();
    }
  }

  @Test
  void aPortInUseCostsThePageNotTheGating() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Gate gate = Gate.create(config(withStatus("""
          status:
            port: %d
        """.formatted(taken.getLocalPort()))))) {
      Optional<StatusServer> server = AgentStatusPage.start(gate, false, log::add);

      assertThat(server).isEmpty();
      assertThat(log).singleElement().asString().isEqualTo("no status page, the gating runs on:"
          + " the status page cannot listen on 127.0.0.1:" + taken.getLocalPort()
          + " (tollgate.status.port): Address already in use");
    }
  }

  @Test
  void underStrictAPortInUseStopsTheStart() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Gate gate = Gate.create(config(withStatus("""
          status:
            port: %d
        """.formatted(taken.getLocalPort()))))) {
      assertThatThrownBy(() -> AgentStatusPage.start(gate, true, log::add))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageStartingWith("the status page cannot listen on 127.0.0.1:"
              + taken.getLocalPort() + " (tollgate.status.port)");
      assertThat(log).isEmpty();
    }
  }

  @Test
  void anIpv6AddressIsWrittenInBrackets() {
    assertThat(AgentStatusPage.address("::1", 9464)).isEqualTo("http://[::1]:9464/");
    assertThat(AgentStatusPage.address("127.0.0.1", 9464)).isEqualTo("http://127.0.0.1:9464/");
  }

  /** One provider, and {@code status} (a YAML section under {@code tollgate:}, or nothing). */
  private static String withStatus(String status) {
    return """
        tollgate:
          providers:
            openai:
              base-url: https://api.openai.com
              api: openai
        """ + status;
  }
}
