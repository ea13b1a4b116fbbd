package io.tollgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Without the agent jar on the class path: the bridge is absent and nothing crosses. */
class AttachedAgentTest {

  @Test
  void withoutAnAgentNothingGatesAndTenantsStayInTheCore() {
    assertThat(AttachedAgent.sharedTenant()).isEmpty();
    assertThat(AttachedAgent.sharedUser()).isEmpty();
    try (Tenants.Scope sending = AttachedAgent.sendingGatedCall();
        Tenants.Scope acme = Tenants.bind("acme")) {
      assertThat(Tenants.current()).contains("acme");
    }
    assertThat(Tenants.current()).isEmpty();
  }
}
