package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Per-model limits ({@code providers.<p>.models}) checked with the account's, all-or-none, on
 * every backend: in memory, a standalone Redis and a Redis Cluster.
 */
class GateModelLimitsTest {

  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));
  private final List<MockLlmServer> servers = new ArrayList<>();

  @BeforeEach
  void clean() {
    LimitBackends.flush();
  }

  @AfterEach
  void stop() {
    servers.forEach(MockLlmServer::close);
  }

  private MockLlmServer server() {
    MockLlmServer server = MockLlmServer.start().usage(10, 5);
    servers.add(server);
    return server;
  }

  private Gate gate(String backend, String providers) {
    return Gate.create(config("tollgate:\n" + LimitBackends.yaml(backend) + "  providers:\n" + providers,
        Map.of()));
  }

  private int call(Gate gate, MockLlmServer server, String model) throws Exception {
    return send(gate, chat(server.baseUrl(), "sk-app", body(model)));
  }

  private int send(Gate gate, OutboundRequest request) throws Exception {
    CallResult<HttpResponse<InputStream>> result = gate.call(request, true, transport);
    if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
      readBody(result);
    }
    return status(result);
  }

  private static String body(String model) {
    return "{\"model\":\"" + model + "\",\"max_tokens\":5,"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}";
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void aCallNeedsRoomInItsModelAndInTheAccountAndTakesBothOrNeither(String backend)
      throws Exception {
    MockLlmServer openai = server();
    try (Gate gate = gate(backend, """
            openai:
              base-url: %s
              limits: { requests-per-minute: 3 }
              models:
                gpt-4o: { requests-per-minute: 2 }
                gpt-4o-mini: { requests-per-minute: 5 }
        """.formatted(openai.baseUrl()))) {
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        statuses.add(call(gate, openai, "gpt-4o"));
      }
      // the third gpt-4o call was refused by its model and took nothing from the account
      statuses.add(call(gate, openai, "gpt-4o-mini"));
      statuses.add(call(gate, openai, "gpt-4o-mini"));

      assertThat(statuses).containsExactly(200, 200, 429, 200, 429);
      assertThat(openai.requests()).extracting(r -> r.json().at("/model").asText())
          .containsExactly("gpt-4o", "gpt-4o", "gpt-4o-mini");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void aRefusalByTheModelShowsTheModelsLimitInItsHeaders(String backend) throws Exception {
    MockLlmServer openai = server();
    try (Gate gate = gate(backend, """
            openai:
              base-url: %s
              limits: { requests-per-minute: 100 }
              models:
                gpt-4o: { requests-per-minute: 1 }
        """.formatted(openai.baseUrl()))) {
      call(gate, openai, "gpt-4o");

      CallResult<HttpResponse<InputStream>> refused =
          gate.call(chat(openai.baseUrl(), "sk-app", body("gpt-4o")), true, transport);

      SyntheticResponse response = ((CallResult.Synthetic<HttpResponse<InputStream>>) refused).response();
      assertThat(response.status()).isEqualTo(429);
      assertThat(response.headers().first("x-ratelimit-limit-requests")).contains("1");
      assertThat(response.headers().first("x-ratelimit-remaining-requests")).contains("0");
      assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("rate_limit_exceeded");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void everyModelTheStarCoversHasABucketOfItsOwn(String backend) throws Exception {
    MockLlmServer openai = server();
    try (Gate gate = gate(backend, """
            openai:
              base-url: %s
              models:
                gpt-4o: { requests-per-minute: 5 }
                "*": { requests-per-minute: 1 }
        """.formatted(openai.baseUrl()))) {
      List<Integer> statuses = List.of(
          call(gate, openai, "model-a"), call(gate, openai, "model-a"),
          call(gate, openai, "model-b"), call(gate, openai, "MODEL-B"),
          call(gate, openai, "gpt-4o"), call(gate, openai, "gpt-4o"));

      assertThat(statuses).containsExactly(200, 429, 200, 429, 200, 200);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void aFallbackIsChargedToTheModelItsModelMapSends(String backend) throws Exception {
    MockLlmServer primary = server();
    MockLlmServer backup = server();
    try (Gate gate = gate(backend, """
            openai:
              base-url: %s
              limits: { requests-per-minute: 1 }
              fallbacks: [backup]
            backup:
              base-url: %s
              api-key: sk-backup
              model-map: { gpt-4o: gpt-4o-mini }
              models:
                gpt-4o: { requests-per-minute: 100 }
                gpt-4o-mini: { requests-per-minute: 1 }
        """.formatted(primary.baseUrl(), backup.baseUrl()))) {
      List<Integer> statuses = List.of(call(gate, primary, "gpt-4o"),
          call(gate, primary, "gpt-4o"), call(gate, primary, "gpt-4o"));

      // the third call finds the primary's account and the backup's gpt-4o-mini both spent
      assertThat(statuses).containsExactly(200, 200, 429);
      assertThat(primary.requestCount()).isEqualTo(1);
      assertThat(backup.requests()).extracting(r -> r.json().at("/model").asText())
          .containsExactly("gpt-4o-mini");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void anAzureDeploymentIsTheModelItsLimitsAreKeyedBy(String backend) throws Exception {
    MockLlmServer azure = server();
    try (Gate gate = gate(backend, """
            azure:
              base-url: %s
              api: azure-openai
              models:
                chat-prod: { requests-per-minute: 1 }
        """.formatted(azure.baseUrl()))) {
      // the body's model is not what Azure serves: the deployment in the path is
      List<Integer> statuses = List.of(
          send(gate, azureChat(azure, "chat-prod", "gpt-4o")),
          send(gate, azureChat(azure, "chat-prod", "gpt-4o-mini")),
          send(gate, azureChat(azure, "chat-test", "gpt-4o")));

      assertThat(statuses).containsExactly(200, 429, 200);
      assertThat(azure.requestCount()).isEqualTo(2);
    }
  }

  private static OutboundRequest azureChat(MockLlmServer server, String deployment, String model) {
    return OutboundRequest.of("POST",
        URI.create(server.baseUrl() + "/openai/deployments/" + deployment
            + "/chat/completions?api-version=2024-10-21"),
        Headers.of("api-key", "az-app", "Content-Type", "application/json"),
        body(model).getBytes(StandardCharsets.UTF_8));
  }
}
