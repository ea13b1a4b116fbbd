package io.tollgate.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.OnLimit;
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
    AgentGates.install(null, null);
  }

  @Test
  void onlyAThreadInsideASynchronousCallGetsTheGateThatWaits() {
    try (Gate gate = Gate.create(WAITING);
        Gate neverWaits = Gate.builder(AgentStartup.rejecting(WAITING))
            .limiter(gate.limiter()).breakers(gate.breakers()).build()) {
      AgentGates.install(gate, neverWaits);

      assertThat(AgentGates.forCurrentThread()).isSameAs(neverWaits);
      CallerThreads.enter();
      try {
        assertThat(AgentGates.forCurrentThread()).isSameAs(gate);
      } finally {
        CallerThreads.exit();
      }
      assertThat(AgentGates.forCurrentThread()).isSameAs(neverWaits);
    }
  }

  @Test
  void isEmptyUntilInstalled() {
    assertThat(AgentGates.forCurrentThread()).isNull();
  }

  @Test
  void theNonWaitingConfigurationDiffersOnlyInOnLimit() {
    TollgateConfig rejecting = AgentStartup.rejecting(WAITING);

    assertThat(rejecting.onLimit()).isEqualTo(OnLimit.REJECT);
    assertThat(TollgateConfig.builder().build()).isNotEqualTo(rejecting);
    assertThat(rejecting.providers()).isEqualTo(WAITING.providers());
    assertThat(rejecting.maxWait()).isEqualTo(WAITING.maxWait());
    assertThat(rejecting.breaker()).isEqualTo(WAITING.breaker());
    assertThat(rejecting.tokens()).isEqualTo(WAITING.tokens());
  }
}
