package io.tollgate.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.gate.Gate;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AgentGatesTest {

  private static final TollgateConfig WAITING = TollgateConfigLoader.builder().environment(Map.of())
      .build().fromYaml("""
          tollgate:
            on-limit: wait
            max-wait: 3s
            providers:
              openai:
                base-url: https://api.openai.com
                api: openai
                limits:
                  requests-per-minute: 5
          """);

  @AfterEach
  void uninstall() {
    AgentGates.install(null);
  }

  @Test
  void everyThreadGetsTheOneGateAsConfigured() throws Exception {
    try (Gate gate = Gate.create(WAITING)) {
      AgentGates.install(gate);

      assertThat(AgentGates.gate()).isSameAs(gate);
      CallerThreads.enter();
      try {
        assertThat(AgentGates.gate()).isSameAs(gate);
      } finally {
        CallerThreads.exit();
      }
      Gate[] seen = new Gate[1];
      Thread other = new Thread(() -> seen[0] = AgentGates.gate());
      other.start();
      other.join();
      assertThat(seen[0]).isSameAs(gate);
    }
  }

  @Test
  void isEmptyUntilInstalled() {
    assertThat(AgentGates.gate()).isNull();
  }
}
