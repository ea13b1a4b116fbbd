package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/** Everything third-party inside the agent jar is relocated: the app can never see it. */
class AgentJarContentsIT {

  /** Top-level files that are neither classes nor loadable by name. */
  private static final Set<String> TOP_LEVEL_RESOURCES = Set.of("LICENSE.txt", "COPYRIGHT.txt");

  @Test
  void holdsNothingOutsideIoTollgateButMetadata() throws Exception {
    try (JarFile jar = new JarFile(ForkedApp.agentJar().toFile())) {
      List<String> strays = Collections.list(jar.entries()).stream()
          .map(ZipEntry::getName)
          .filter(name -> !name.startsWith("io/tollgate/"))
          .filter(name -> !name.equals("io/"))
          .filter(name -> !name.startsWith("META-INF/") || name.endsWith(".class")
              || name.startsWith("META-INF/versions/"))
          .filter(name -> !TOP_LEVEL_RESOURCES.contains(name))
          .toList();
      assertThat(strays).as("unrelocated entries").isEmpty();

      List<String> services = Collections.list(jar.entries()).stream()
          .map(ZipEntry::getName)
          .filter(name -> name.startsWith("META-INF/services/") && !name.endsWith("/"))
          .toList();
      assertThat(services).allSatisfy(name ->
          assertThat(name).startsWith("META-INF/services/io.tollgate."));
    }
  }

  @Test
  void isAnAgentThatCanRetransform() throws Exception {
    try (JarFile jar = new JarFile(ForkedApp.agentJar().toFile())) {
      var attributes = jar.getManifest().getMainAttributes();
      assertThat(attributes.getValue("Premain-Class")).isEqualTo("io.tollgate.agent.TollgateAgent");
      assertThat(attributes.getValue("Agent-Class")).isEqualTo("io.tollgate.agent.TollgateAgent");
      assertThat(attributes.getValue("Can-Retransform-Classes")).isEqualTo("true");
      assertThat(jar.getEntry("okhttp3/Interceptor.class")).as("OkHttp is the app's").isNull();
    }
  }
}
