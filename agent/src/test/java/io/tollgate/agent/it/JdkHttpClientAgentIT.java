package io.tollgate.agent.it;

import static io.tollgate.agent.HelperConfigs.primaryLimitedTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only the JDK's {@code java.net.http.HttpClient} does under
 * {@code -javaagent:tollgate-agent.jar} (an unmodified {@code JdkHttpClientApp}, mock providers):
 * its body handlers, the failures it throws, {@code sendAsync} waiting without holding the app's
 * thread, an agent attached late. What every client does is {@link ClientContractIT}
 * ({@code JdkHttpClientContractIT} over HTTP/1.1, {@code JdkHttpClientH2ContractIT} over HTTP/2).
 */
class JdkHttpClientAgentIT {

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();

  private static final String APP = "io.tollgate.agent.it.app.JdkHttpClientApp";
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the agent\"}]}";

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    primary.reset();
  }

  @Test
  void answersALimitedCallThroughEachBodyHandlerAsTheProviderWould() throws Exception {
    Path config = write("tollgate.yaml", primaryLimitedTo(primary.baseUrl(), "requests-per-hour: 1"));
    String url = primary.baseUrl() + "/v1/chat/completions";

    Run run = app("app").withAgent("config=" + config)
        .call("send", url, CHAT)
        .call("send", url, CHAT)
        .call("stream", url, CHAT)
        .call("async", url, CHAT)
        .call("lines", url, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).singleElement().asString().startsWith("[tollgate] on:")
        .endsWith(", version " + ForkedApp.agentVersion());
    assertThat(run.calls()).extracting(AppCall::mode, AppCall::status).containsExactly(
        tuple("send", 200), tuple("send", 429), tuple("stream", 429), tuple("async", 429),
        tuple("lines", 429));
    List<AppCall> limited = run.calls().subList(1, 5);
    assertThat(limited).allSatisfy(ClientContractIT::isTheSyntheticRequestLimit);
    String body = withoutWaitTime(limited.get(0).bodyText());
    assertThat(limited).extracting(call -> withoutWaitTime(call.bodyText()))
        .as("the same body, whichever handler converted it (lines: one line)")
        .containsExactly(body, body, body, body + "\n");
    assertThat(primary.requestCount()).isEqualTo(1);
  }

  @Test
  void failsAsTheClientItselfWouldWhenNoProviderAnswers() throws Exception {
    // a privileged port nothing listens on: a freed ephemeral port could be taken meanwhile
    int closedPort = 1;
    String url = "http://127.0.0.1:" + closedPort + "/v1/chat/completions";
    Path config = write("tollgate.yaml", """
        tollgate:
          providers:
            primary:
              base-url: http://127.0.0.1:%d
              api: openai
              limits:
                requests-per-hour: 10
        """.formatted(closedPort));

    Run without = app("without").call("send", url, CHAT).call("async", url, CHAT).run();
    Run with = app("with").withAgent("config=" + config).call("send", url, CHAT)
        .call("async", url, CHAT).run();

    assertThat(with.completed()).as(with.toString()).isTrue();
    assertThat(with.stderr()).singleElement().asString().startsWith("[tollgate] on:");
    List<String> failures = without.stdout().stream().filter(l -> l.startsWith("call ")).toList();
    assertThat(failures).containsExactly("call 1 send failed=java.net.ConnectException",
        "call 2 async failed=java.net.ConnectException");
    assertThat(with.stdout()).filteredOn(l -> l.startsWith("call "))
        .as("thrown by send, and the failed future of sendAsync, as without the agent")
        .containsExactlyElementsOf(failures);
  }

  @Test
  void waitsForRoomWithoutHoldingTheThreadThatCalledSendAsync() throws Exception {
    Path config = write("tollgate.yaml", """
        tollgate:
          on-limit: wait
          max-wait: 8s
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-second: 1
        """.formatted(primary.baseUrl()));
    String url = primary.baseUrl() + "/v1/chat/completions";

    Run run = app("app").withAgent("config=" + config)
        .call("send", url, CHAT)
        .call("send", url, CHAT)
        .call("async", url, CHAT)
        .call("async", url, CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status)
        .as("every call waits for its turn, none is refused").containsExactly(200, 200, 200, 200);
    List<RecordedRequest> arrived = primary.awaitRequests(4, Duration.ofSeconds(5));
    // admitted a second apart; a slow first send (a loaded machine) may shorten one gap between
    // arrivals, not the span of all four
    assertThat(Duration.between(arrived.get(0).arrivedAt(), arrived.get(3).arrivedAt()))
        .as("four requests at one a second").isGreaterThan(Duration.ofSeconds(2));
    assertThat(submittedAt(run, 4))
        .as("both sendAsync calls returned at once: the waits did not hold the app's thread")
        .isBefore(arrived.get(2).arrivedAt());
  }

  @Test
  void attachedToARunningAppLimitsTheClientsItAlreadyHas() throws Exception {
    Path config = write("tollgate.yaml", primaryLimitedTo(primary.baseUrl(), "requests-per-hour: 1"));

    Run run = ForkedApp.launcher(dir.resolve("run"), ForkedApp.appClasses().toString(),
            "io.tollgate.agent.it.app.JdkLateAttachApp",
            ForkedApp.agentJar().toAbsolutePath().toString(), "config=" + config,
            primary.baseUrl() + "/v1/chat/completions", CHAT)
        .jvmOption("-Djdk.attach.allowAttachSelf=true")
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.tollgateLines()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::mode, AppCall::status)
        .as("the client already in use is limited from the attach on (one request an hour)")
        .containsExactly(tuple("before", 200), tuple("after", 200), tuple("after", 429));
    assertThat(run.calls().get(2).retryAfter()).matches("\\d+");
    assertThat(primary.requestCount()).isEqualTo(2);
  }

  private ForkedApp app(String name) {
    return ForkedApp.launcher(dir.resolve(name), ForkedApp.appClasses().toString(), APP);
  }

  /** The message says how long to wait, to the millisecond. */
  private static String withoutWaitTime(String body) {
    return body.replaceAll("try again in [^ ]+ \\(Tollgate\\)", "try again in T (Tollgate)");
  }

  private static Instant submittedAt(Run run, int call) {
    String prefix = "submitted " + call + " at ";
    return run.stdout().stream().filter(line -> line.startsWith(prefix))
        .map(line -> Instant.ofEpochMilli(Long.parseLong(line.substring(prefix.length()))))
        .findFirst().orElseThrow(() -> new AssertionError("no line " + prefix + " in " + run));
  }

  private Path write(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }
}
