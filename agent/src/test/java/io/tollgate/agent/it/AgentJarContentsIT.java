package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * Everything inside the agent jar but its own classes is relocated, its copy of Tollgate's core
 * included: the app can never link it by accident, and an app that carries the core itself (the
 * starter, the filter) links its own.
 */
class AgentJarContentsIT {

  /** Top-level files that are neither classes nor loadable by name. */
  private static final Set<String> TOP_LEVEL_RESOURCES = Set.of("LICENSE.txt", "COPYRIGHT.txt");

  @Test
  void holdsNothingOutsideTheAgentsPackageButMetadata() throws Exception {
    try (JarFile jar = new JarFile(ForkedApp.agentJar().toFile())) {
      List<String> strays = Collections.list(jar.entries()).stream()
          .map(ZipEntry::getName)
          .filter(name -> !name.startsWith("io/tollgate/agent/"))
          .filter(name -> !name.equals("io/") && !name.equals("io/tollgate/"))
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
          assertThat(name).startsWith("META-INF/services/io.tollgate.agent."));
    }
  }

  /**
   * The agent counts with two encodings, reads JSON with Jackson's
   * streaming parser and YAML with SnakeYAML's, and sends Redis scripts: nothing else of those
   * libraries ships.
   */
  @Test
  void leavesOutWhatTheAgentNeverLoads() throws Exception {
    try (JarFile jar = new JarFile(ForkedApp.agentJar().toFile())) {
      List<String> names = Collections.list(jar.entries()).stream().map(ZipEntry::getName).toList();
      String byteBuddy = "io/tollgate/agent/shaded/net/bytebuddy/";
      assertThat(names).as("ByteBuddy, relocated").contains(
          byteBuddy + "agent/builder/AgentBuilder.class", byteBuddy + "asm/Advice.class");
      assertThat(names).noneMatch(name -> name.startsWith("net/bytebuddy/"));
      assertThat(names.stream().filter(name -> name.endsWith(".tiktoken")))
          .containsExactlyInAnyOrder(
              "io/tollgate/agent/shaded/com/knuddels/jtokkit/o200k_base.tiktoken",
              "io/tollgate/agent/shaded/com/knuddels/jtokkit/cl100k_base.tiktoken");
      String core = "io/tollgate/agent/shaded/io/tollgate/";
      assertThat(names).contains(core + "lua/limiter.lua",
          "META-INF/licenses/ASM",
          "io/tollgate/agent/shaded/com/knuddels/jtokkit/Encodings.class",
          "io/tollgate/agent/shaded/com/fasterxml/jackson/core/JsonFactory.class",
          "io/tollgate/agent/shaded/org/yaml/snakeyaml/parser/ParserImpl.class");
      assertThat(names).noneMatch(name ->
          name.startsWith("io/tollgate/agent/shaded/com/fasterxml/jackson/databind/")
              || name.startsWith("io/tollgate/agent/shaded/com/fasterxml/jackson/annotation/")
              || name.startsWith("io/tollgate/agent/shaded/com/fasterxml/jackson/dataformat/"));
      // Jedis's JSON and search commands' libraries: the limiter only sends scripts
      assertThat(names).noneMatch(name -> name.startsWith("io/tollgate/agent/shaded/com/google/")
          || name.startsWith("io/tollgate/agent/shaded/org/json/"));
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
