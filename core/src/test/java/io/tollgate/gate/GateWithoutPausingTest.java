package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.TollgateConfig;
import io.tollgate.router.ProviderBreakers;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Gate#callWithoutPausing}: the synchronous driver for a thread that must never sleep (an
 * HTTP client's dispatcher thread) neither waits for room nor jitters before a fallback.
 */
class GateWithoutPausingTest {

  private MockLlmServer primary;
  private MockLlmServer backup;
  // generous: a cold JVM on a busy machine may take seconds over its first call
  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));

  @BeforeEach
  void start() {
    primary = MockLlmServer.start();
    backup = MockLlmServer.start();
  }

  @AfterEach
  void stop() {
    primary.close();
    backup.close();
  }

  private TollgateConfig config(String limits) {
    return GateTestSupport.config("""
        tollgate:
          on-limit: wait
          max-wait: 2m
          providers:
            primary:
              base-url: %s
              limits: { %s }
              fallbacks: [backup]
            backup:
              base-url: %s
              api-key: sk-backup
        """.formatted(primary.baseUrl(), limits, backup.baseUrl()), Map.of());
  }

  @Test
  void aLimitedCallIsAnsweredAtOnceAlthoughOnLimitSaysWait() throws Exception {
    // no fallback has room either: only waiting a minute for the refill could admit the call
    try (Gate gate = Gate.create(GateTestSupport.config("""
        tollgate:
          on-limit: wait
          max-wait: 2m
          providers:
            primary:
              base-url: %s
              limits: { requests-per-minute: 1 }
        """.formatted(primary.baseUrl()), Map.of()))) {
      CallResult<HttpResponse<InputStream>> first =
          gate.callWithoutPausing(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);
      readBody(first);

      CallResult<HttpResponse<InputStream>> second =
          gate.callWithoutPausing(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);

      assertThat(status(first)).isEqualTo(200);
      assertThat(second).isInstanceOf(CallResult.Synthetic.class);
      assertThat(status(second)).isEqualTo(429);
      assertThat(((CallResult.Synthetic<HttpResponse<InputStream>>) second).response().headers()
          .first("retry-after")).isPresent();
      assertThat(primary.requestCount()).isEqualTo(1);
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS) // a slept jitter (here 5 to 60 minutes) fails it
  void aFallbackIsSentWithoutTheSwitchOverJitter() throws Exception {
    TollgateConfig config = config("requests-per-minute: 100");
    // The seed draws a jitter of many minutes for the first switch-over: a driver that slept it
    // would still be asleep when the timeout ends the test.
    Random random = new Random(3);
    long firstJitterMillis = new Random(3).nextLong(Duration.ofHours(1).toMillis() + 1);
    assertThat(firstJitterMillis).isGreaterThan(Duration.ofMinutes(5).toMillis());
    primary.script().next(1, Fault.rateLimited(Duration.ofSeconds(30)));
    try (ProviderBreakers breakers = ProviderBreakers.builder(config.breaker())
            .switchOverJitter(Duration.ofHours(1)).random(random).build();
        Gate gate = Gate.builder(config).breakers(breakers).build()) {

      CallResult<HttpResponse<InputStream>> result =
          gate.callWithoutPausing(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);

      assertThat(result.provider()).isEqualTo("backup");
      assertThat(status(result)).isEqualTo(200);
      assertThat(readBody(result)).contains("\"object\":\"chat.completion\"");
      assertThat(primary.requestCount()).isEqualTo(1);
      assertThat(backup.requestCount()).isEqualTo(1);
    }
  }
}
