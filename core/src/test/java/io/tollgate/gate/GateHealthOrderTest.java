package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fallbacks are tried best first, by the health scores their answers earn. */
class GateHealthOrderTest {

  @Test
  void aFallbackThatFailedIsTriedAfterOneThatDidNot() throws Exception {
    try (MockLlmServer primary = MockLlmServer.start();
        MockLlmServer flaky = MockLlmServer.start();
        MockLlmServer steady = MockLlmServer.start()) {
      primary.script().always(Fault.status(503));
      flaky.script().next(1, Fault.status(500));
      JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));
      try (Gate gate = Gate.create(config("""
          tollgate:
            breaker: { failures: 10, window: 10s, open-for: 30s }
            providers:
              primary: { base-url: "%s", fallbacks: [flaky, steady] }
              flaky: { base-url: "%s", api-key: sk-flaky }
              steady: { base-url: "%s", api-key: sk-steady }
          """.formatted(primary.baseUrl(), flaky.baseUrl(), steady.baseUrl()), Map.of()))) {

        // equal scores at first: configuration order, so flaky fails, then steady answers
        assertThat(gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport).provider())
            .isEqualTo("steady");
        assertThat(gate.health().score("flaky")).isLessThan(gate.health().score("steady"));

        // now steady ranks first and flaky is not asked
        assertThat(gate.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport).provider())
            .isEqualTo("steady");
        assertThat(flaky.requestCount()).isEqualTo(1);
        assertThat(steady.requestCount()).isEqualTo(2);
      }
    }
  }
}
