package io.tollgate.samples.legacy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built app jar in a child JVM against the test kit's mock provider, with and without the agent. */
class LegacyAgentAppIT {

  private static final String KEY = "sk-legacy-app";

  private final MockLlmServer provider = MockLlmServer.start().requireApiKey(KEY);

  @TempDir
  Path workDir;

  @AfterEach
  void stop() {
    provider.stop();
  }

  @Test
  void everyClientCallsTheProviderPlainAndStreamedWithoutTheAgent() throws Exception {
    ForkedLegacyApp.Run run = ForkedLegacyApp.run(workDir, null,
        "--base-url", provider.baseUrl(), "--api-key", KEY, "--threads", "1", "--calls", "4", "--pause", "0ms");

    assertThat(run.exitCode()).as("stderr: %s", run.stderr()).isZero();
    assertThat(run.stderr()).isEmpty();
    assertThat(run.stdout()).last().isEqualTo("done calls=12");
    assertThat(run.calls()).hasSize(12);
    for (String client : List.of("okhttp", "jdk", "apache")) {
      for (int n = 1; n <= 4; n++) {
        String id = client + "-1-" + n;
        Map<String, String> call = run.call(id);
        assertThat(call).containsEntry("client", client)
            .containsEntry("stream", Boolean.toString(n % 2 == 0))
            .containsEntry("status", "200")
            .containsEntry("model", "gpt-4o")
            .containsEntry("prompt", Integer.toString(promptTokens(id)))
            .containsEntry("completion", "20");
      }
    }
    List<RecordedRequest> received = provider.requests();
    assertThat(received).hasSize(12);
    assertThat(received).allSatisfy(request -> {
      assertThat(request.path()).isEqualTo("/v1/chat/completions");
      assertThat(request.header("authorization")).isEqualTo("Bearer " + KEY);
      String id = request.header("x-request-id");
      assertThat(request.json().path("stream").asBoolean()).isEqualTo(id.endsWith("-2") || id.endsWith("-4"));
      assertThat(request.json().path("max_tokens").asInt()).isEqualTo(64);
    });
    assertThat(ids(received)).isEqualTo(run.calls().keySet().stream().collect(Collectors.toCollection(TreeSet::new)));
  }

  @Test
  void theAgentLimitsOkHttpCallsExactly() throws Exception {
    Path config = config("requests-per-hour: 5");

    ForkedLegacyApp.Run run = ForkedLegacyApp.run(workDir, config, "--base-url", provider.baseUrl(),
        "--api-key", KEY, "--clients", "okhttp", "--threads", "1", "--calls", "8", "--pause", "0ms");

    assertThat(run.exitCode()).as("stderr: %s", run.stderr()).isZero();
    assertThat(run.stderr()).anySatisfy(line -> assertThat(line).startsWith("[tollgate] on: mode enforce, providers [openai]"));
    assertThat(run.stdout()).last().isEqualTo("done calls=8");
    for (int n = 1; n <= 5; n++) {
      assertThat(run.call("okhttp-1-" + n)).containsEntry("status", "200").containsEntry("model", "gpt-4o");
    }
    for (int n = 6; n <= 8; n++) {
      // Tollgate's own 429, in OpenAI's shape: the error type names the limited dimension.
      assertThat(run.call("okhttp-1-" + n)).containsEntry("status", "429").containsEntry("error", "requests");
    }
    assertThat(ids(provider.requests()))
        .containsExactly("okhttp-1-1", "okhttp-1-2", "okhttp-1-3", "okhttp-1-4", "okhttp-1-5");
  }

  /**
   * All three clients share one provider limit. A client the agent instruments gets its 429s from
   * Tollgate (the provider never sees those calls); one it does not instrument yet reaches the
   * provider every time. Whichever clients are instrumented, exactly 5 of their calls get through.
   */
  @Test
  void instrumentedClientsShareTheLimitAndOthersPassUntouched() throws Exception {
    Path config = config("requests-per-hour: 5");

    ForkedLegacyApp.Run run = ForkedLegacyApp.run(workDir, config, "--base-url", provider.baseUrl(),
        "--api-key", KEY, "--threads", "1", "--calls", "8", "--pause", "0ms");

    assertThat(run.exitCode()).as("stderr: %s", run.stderr()).isZero();
    assertThat(run.calls()).hasSize(24);
    Set<String> received = ids(provider.requests());
    Set<String> limitedClients = new TreeSet<>();
    run.calls().forEach((id, call) -> {
      if (call.get("status").equals("429")) {
        limitedClients.add(call.get("client"));
        assertThat(received).as("a call Tollgate refused never reaches the provider").doesNotContain(id);
      } else {
        assertThat(call).containsEntry("status", "200");
        assertThat(received).contains(id);
      }
    });
    assertThat(limitedClients).contains("okhttp");
    long admittedOfLimitedClients = received.stream()
        .filter(id -> limitedClients.contains(id.substring(0, id.indexOf('-'))))
        .count();
    assertThat(admittedOfLimitedClients).isEqualTo(5);
    assertThat(received).hasSize(5 + 8 * (3 - limitedClients.size()));
  }

  private Path config(String limit) throws Exception {
    Path config = workDir.resolve("tollgate.yaml");
    Files.writeString(config, String.join("\n",
        "tollgate:",
        "  providers:",
        "    openai:",
        "      base-url: " + provider.baseUrl(),
        "      limits:",
        "        " + limit,
        ""), StandardCharsets.UTF_8);
    return config;
  }

  private static Set<String> ids(List<RecordedRequest> requests) {
    return requests.stream().map(r -> r.header("x-request-id")).collect(Collectors.toCollection(TreeSet::new));
  }

  /** The mock's count: a quarter of the characters of the message's content, rounded up. */
  private static int promptTokens(String id) {
    String content = "Summarise ticket " + id + " in one sentence for the support dashboard.";
    return (content.codePointCount(0, content.length()) + 3) / 4;
  }
}
