package io.tollgate.together.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/** The app without an OpenTelemetry bean: the starter records into GlobalOpenTelemetry (a no-op). */
class AgentBesideStarterIT extends AgentBesideStarterScenario {

  @Override
  boolean appOpenTelemetry() {
    return false;
  }

  @Override
  void checkAppSpans(List<String> names) {
    assertThat(names).isEmpty();
  }
}
