package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.hostile.HostileBytes;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Malformed JSON and SSE from a provider, through every client the agent hooks, in unmodified
 * apps: every body reaches the app exactly as the provider sent it, nothing is thrown into the app
 * or printed on its stderr, and every call was charged (the one past the limit is refused).
 */
class HostileBodiesAgentIT {

  @AutoClose static final MockLlmServer provider = MockLlmServer.start();

  /** Per client: half JSON bodies, half SSE streams, each a hostile variant of a well-formed one. */
  private static final int BODIES = 40;
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":50,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hostile bodies\"}]}";
  private static final String STREAM = "{\"model\":\"gpt-4o\",\"max_tokens\":50,\"stream\":true,"
      + "\"stream_options\":{\"include_usage\":true},"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hostile streams\"}]}";
  private static final String WELL_FORMED_JSON = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\","
      + "\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
      + "\"content\":\"Hello there\"},\"finish_reason\":\"stop\"}],"
      + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15}}";
  private static final String WELL_FORMED_SSE = """
      data: {"id":"c","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hel"}}]}

      data: {"id":"c","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}

      data: {"id":"c","object":"chat.completion.chunk","model":"gpt-4o","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14}}

      data: [DONE]

      """;

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    provider.reset();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"okhttp-4", "okhttp-5", "jdk", "apache-classic-4", "apache-classic-5", "apache-async-5"})
  void everyHostileBodyReachesTheAppUnchangedAndEveryCallIsCharged(String client) throws Exception {
    Path config = dir.resolve("tollgate.yaml");
    Files.writeString(config, """
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-day: %d
        """.formatted(provider.baseUrl(), BODIES));
    Random random = new Random(client.hashCode());
    List<String> sent = new ArrayList<>();
    ForkedApp app = app(client).withAgent("config=" + config).env("APP_KEY", "app-key");
    String url = provider.baseUrl() + "/v1/chat/completions";
    for (int i = 0; i < BODIES; i++) {
      boolean stream = i % 2 == 1;
      String body = HostileBytes.mutateText(stream ? WELL_FORMED_SSE : WELL_FORMED_JSON, random);
      sent.add(body);
      provider.script().next(1, stream ? Fault.malformedSse(body) : Fault.malformedJson(body));
      app.call("stream", url, stream ? STREAM : CHAT);
    }
    app.call("stream", url, CHAT); // past the limit: every call before it was charged

    Run run = app.run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).as("nothing on the app's stderr but the start-up line")
        .singleElement().asString().startsWith("[tollgate] on:");
    List<AppCall> calls = run.calls();
    assertThat(calls).as(run.toString()).hasSize(BODIES + 1);
    for (int i = 0; i < BODIES; i++) {
      AppCall call = calls.get(i);
      assertThat(call.status()).as("call %d", i + 1).isEqualTo(200);
      assertThat(call.body()).as("call %d's body", i + 1).isEqualTo(sent.get(i).getBytes(StandardCharsets.UTF_8));
    }
    AppCall refused = calls.get(BODIES);
    assertThat(refused.status()).isEqualTo(429);
    assertThat(refused.bodyText()).contains("rate_limit_exceeded");
    assertThat(provider.requestCount()).isEqualTo(BODIES);
  }

  private ForkedApp app(String client) {
    Path workDir = dir.resolve("app");
    return switch (client) {
      case "okhttp-4" -> ForkedApp.okhttp("4", workDir);
      case "okhttp-5" -> ForkedApp.okhttp("5", workDir);
      case "jdk" -> ForkedApp.launcher(workDir, ForkedApp.appClasses().toString(),
          "io.tollgate.agent.it.app.JdkHttpClientApp");
      case "apache-classic-4" -> ForkedApp.client("apache-4", "io.tollgate.agent.it.app.ApacheClassic4App", workDir);
      case "apache-classic-5" -> ForkedApp.client("apache-5", "io.tollgate.agent.it.app.ApacheClassic5App", workDir);
      case "apache-async-5" -> ForkedApp.client("apache-5", "io.tollgate.agent.it.app.ApacheAsync5App", workDir);
      default -> throw new IllegalArgumentException(client);
    };
  }
}
