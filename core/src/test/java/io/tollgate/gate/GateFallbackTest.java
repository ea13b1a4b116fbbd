package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A primary that fails and a backup that answers, both real HTTP servers. */
class GateFallbackTest {

  private MockLlmServer primary;
  private MockLlmServer backup;
  private Gate gate;
  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));

  @BeforeEach
  void start() {
    primary = MockLlmServer.start();
    backup = MockLlmServer.start();
    gate = Gate.create(config("""
        tollgate:
          breaker:
            failures: 3
            window: 10s
            open-for: 1s
          providers:
            primary:
              base-url: %s
              fallbacks: [backup]
            backup:
              base-url: %s
              api-key: ${BACKUP_KEY}
              model-map:
                gpt-4o: gpt-4o-mini
        """.formatted(primary.baseUrl(), backup.baseUrl()), Map.of("BACKUP_KEY", "sk-backup")));
  }

  @AfterEach
  void stop() {
    gate.close();
    primary.close();
    backup.close();
  }

  @Test
  void aRateLimitedPrimaryIsAnsweredByTheFallbackWithItsOwnKeyAndModel() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(1)));

    CallResult<HttpResponse<InputStream>> result =
        gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);

    assertThat(result.provider()).isEqualTo("backup");
    assertThat(status(result)).isEqualTo(200);
    assertThat(readBody(result)).contains("\"model\":\"gpt-4o-mini\"");
    RecordedRequest atPrimary = primary.takeRequest(Duration.ofSeconds(1));
    RecordedRequest atBackup = backup.takeRequest(Duration.ofSeconds(1));
    assertThat(atPrimary.header("authorization")).isEqualTo("Bearer sk-app");
    assertThat(atBackup.header("authorization")).isEqualTo("Bearer sk-backup");
    assertThat(atBackup.path()).isEqualTo("/v1/chat/completions");
    assertThat(atBackup.json().get("model").asText()).isEqualTo("gpt-4o-mini");
    assertThat(atBackup.bodyText()).doesNotContain("sk-app");
    assertThat(atBackup.headers().toString()).doesNotContain("sk-app");
  }

  @Test
  void retryAfterKeepsTheRateLimitedProviderAsideUntilItPasses() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(1)));
    gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);

    CallResult<HttpResponse<InputStream>> during =
        gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);
    assertThat(during.provider()).isEqualTo("backup");
    assertThat(primary.requestCount()).isEqualTo(1);

    Thread.sleep(1_100);
    CallResult<HttpResponse<InputStream>> after =
        gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);
    assertThat(after.provider()).isEqualTo("primary");
    assertThat(primary.requestCount()).isEqualTo(2);
  }

  @Test
  void aServerErrorStormOpensTheBreakerThenOneProbeGoesOut() throws Exception {
    primary.script().always(Fault.status(503));
    for (int i = 0; i < 3; i++) {
      assertThat(gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport).provider())
          .isEqualTo("backup");
    }
    assertThat(primary.requestCount()).isEqualTo(3);

    // open: the primary is not even asked
    gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);
    assertThat(primary.requestCount()).isEqualTo(3);

    Thread.sleep(1_100); // open-for: 1s
    primary.script().clear();
    CallResult<HttpResponse<InputStream>> probe =
        gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);
    assertThat(probe.provider()).isEqualTo("primary");
    assertThat(primary.requestCount()).isEqualTo(4);
  }

  @Test
  void aFailedProbeKeepsItOpenLonger() throws Exception {
    primary.script().always(Fault.status(500));
    for (int i = 0; i < 3; i++) {
      gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);
    }
    Thread.sleep(1_100);
    gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport); // the probe fails
    assertThat(primary.requestCount()).isEqualTo(4);

    Thread.sleep(1_100); // the first open time again: not enough, it doubled to 2 s
    gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);
    assertThat(primary.requestCount()).isEqualTo(4);
  }

  @Test
  void aHangingProviderTimesOutAndTheFallbackAnswers() throws Exception {
    // the client's classes loaded and warm first, so that only the hang can exceed the timeout
    transport.send(chat(backup.baseUrl(), "sk-app", CHAT)).body().close();
    primary.script().next(1, Fault.latency(Duration.ofSeconds(20)));
    JdkTransport impatient = new JdkTransport(Duration.ofSeconds(2));

    CallResult<HttpResponse<InputStream>> result =
        gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, impatient);

    assertThat(result.provider()).isEqualTo("backup");
    assertThat(status(result)).isEqualTo(200);
  }

  @Test
  void aBodyThatCannotBeReplayedIsNeverSentToAFallback() throws Exception {
    primary.script().next(1, Fault.status(503));

    CallResult<HttpResponse<InputStream>> result =
        gate.call(chat(primary.baseUrl(), "sk-app", CHAT), false, transport);

    assertThat(result.provider()).isEqualTo("primary");
    assertThat(status(result)).isEqualTo(503);
    assertThat(backup.requestCount()).isZero();
  }

  @Test
  void theAsyncPathFallsBackTheSameWay() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(1)));

    CallResult<HttpResponse<InputStream>> result = gate
        .callAsync(chat(primary.baseUrl(), "sk-app", CHAT), true, transport.async())
        .get();

    assertThat(result.provider()).isEqualTo("backup");
    assertThat(readBody(result)).contains("\"model\":\"gpt-4o-mini\"");
    assertThat(backup.takeRequest(Duration.ofSeconds(1)).header("authorization"))
        .isEqualTo("Bearer sk-backup");
  }

  @Test
  void callsToOtherHostsPassThroughUntouched() throws Exception {
    // the same server under another host name is no configured provider
    CallResult<HttpResponse<InputStream>> result = gate.call(
        chat("http://localhost:" + backup.port(), "sk-app", CHAT), true, transport);

    assertThat(result.provider()).isEmpty();
    assertThat(backup.takeRequest(Duration.ofSeconds(1)).header("authorization"))
        .isEqualTo("Bearer sk-app");
  }
}
