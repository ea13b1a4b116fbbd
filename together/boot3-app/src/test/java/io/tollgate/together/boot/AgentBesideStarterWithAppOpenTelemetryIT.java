package io.tollgate.together.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;

/**
 * The app with an OpenTelemetry bean of its own, the type the starter hands its gate: the agent's
 * copy of the core is relocated, so the bean links with the starter's core, not the agent's.
 */
class AgentBesideStarterWithAppOpenTelemetryIT extends AgentBesideStarterScenario {

  @Override
  boolean appOpenTelemetry() {
    return true;
  }

  /**
   * The two calls the starter gated are its {@code tollgate.call} spans in the app's SDK; the
   * agent's go to GlobalOpenTelemetry, which this app never sets. Every request through the filter
   * is a {@code tollgate.inbound} span, the refused one included.
   */
  @Override
  void checkAppSpans(List<String> names) {
    assertThat(Collections.frequency(names, "tollgate.call")).as(names.toString()).isEqualTo(2);
    assertThat(Collections.frequency(names, "tollgate.inbound")).as(names.toString()).isEqualTo(5);
  }
}
