package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

class AgentVisibilityTest {

  private final AgentVisibility seesTheAgent = new AgentVisibility();

  @Test
  void theLoaderOfTheAgentAndItsChildrenSeeIt() throws Exception {
    assertThat(seesTheAgent.test(AgentVisibility.class.getClassLoader())).isTrue();
    try (URLClassLoader child = new URLClassLoader(new URL[0], AgentVisibility.class.getClassLoader())) {
      assertThat(seesTheAgent.test(child)).isTrue();
    }
  }

  @Test
  void aLoaderBesideTheClassPathAndTheBootLoaderDoNot() throws Exception {
    try (URLClassLoader isolated = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
      assertThat(seesTheAgent.test(isolated)).isFalse();
    }
    assertThat(seesTheAgent.test(null)).isFalse();
  }
}
