package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.router.BreakerState;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Two gates (two app instances) on one Redis react to a failing provider once, together. */
class GateSharedBreakerTest {

  @Test
  void aBreakerOpenedByOneGateStopsTheOthersTrafficWithinASecond() throws Exception {
    try (RedisServer redis = RedisServer.start();
        MockLlmServer primary = MockLlmServer.start();
        MockLlmServer backup = MockLlmServer.start()) {
      String yaml = """
          tollgate:
            redis:
              url: %s
            breaker: { failures: 3, window: 10s, open-for: 30s }
            providers:
              primary: { base-url: "%s", fallbacks: [backup] }
              backup: { base-url: "%s", api-key: sk-backup }
          """.formatted(redis.uri(), primary.baseUrl(), backup.baseUrl());
      JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));
      try (Gate first = Gate.create(config(yaml, Map.of()));
          Gate second = Gate.create(config(yaml, Map.of()))) {
        primary.script().always(Fault.status(503));
        for (int i = 0; i < 3; i++) {
          first.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);
        }
        assertThat(first.breakers().breaker("primary").state()).isEqualTo(BreakerState.OPEN);

        long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        while (second.breakers().breaker("primary").state() != BreakerState.OPEN
            && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        CallResult<?> fromSecond = second.call(chat(primary.baseUrl(), "sk-app", CHAT), true, transport);

        assertThat(second.breakers().breaker("primary").state()).isEqualTo(BreakerState.OPEN);
        assertThat(fromSecond.provider()).isEqualTo("backup");
        assertThat(primary.requestCount()).isEqualTo(3);
      }
    }
  }
}
