package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * Everything inside the agent jar but its own classes is relocated, its copy of Tollgate's core
 * included: the app can never link it by accident, and an app that carries the core itself (the
 * starter, the filter) links its own.
 */
class AgentJarContentsIT {

  /**
   * Where each bundled library lives in the jar (relocated), and the coordinates by which NOTICE
   * names it.
   */
  private static final Map<String, String> BUNDLED = Map.of(
      "net/bytebuddy/", "net.bytebuddy:byte-buddy",
      "redis/clients/jedis/", "redis.clients:jedis",
      "redis/clients/authentication/", "redis.clients.authentication:redis-authx-core",
      "org/apache/commons/pool2/", "org.apache.commons:commons-pool2",
      "io/github/resilience4j/", "io.github.resilience4j:resilience4j-circuitbreaker",
      "io/opentelemetry/", "io.opentelemetry",
      "com/fasterxml/jackson/core/", "com.fasterxml.jackson.core:jackson-core",
      "org/yaml/snakeyaml/", "org.yaml:snakeyaml",
      "com/knuddels/jtokkit/", "com.knuddels:jtokkit",
      "org/slf4j/", "org.slf4j:slf4j-api");

  private static final String SHADED = "io/tollgate/agent/shaded/";

  @Test
  void holdsNothingOutsideTheAgentsPackageButMetadata() throws Exception {
    try (JarFile jar = new JarFile(ForkedApp.agentJar().toFile())) {
      List<String> strays = Collections.list(jar.entries()).stream()
          .map(ZipEntry::getName)
          .filter(name -> !name.startsWith("io/tollgate/agent/"))
          .filter(name -> !name.equals("io/") && !name.equals("io/tollgate/"))
          .filter(name -> !name.startsWith("META-INF/") || name.endsWith(".class")
              || name.startsWith("META-INF/versions/"))
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
      assertThat(attributes.getValue("Implementation-Version")).isEqualTo(ForkedApp.agentVersion());
      assertThat(jar.getEntry("okhttp3/Interceptor.class")).as("OkHttp is the app's").isNull();
    }
  }

  /**
   * Tollgate's licence and notice, not a bundled library's that happened to come first; the
   * notice names every library the jar bundles, and the licences that are not Tollgate's own
   * travel with their code.
   */
  @Test
  void carriesTollgatesLicenceAndNoticeAndTheBundledLibrariesLicences() throws Exception {
    try (JarFile jar = new JarFile(ForkedApp.agentJar().toFile())) {
      List<String> names = Collections.list(jar.entries()).stream().map(ZipEntry::getName).toList();
      String licence = text(jar, "META-INF/LICENSE");
      String notice = text(jar, "META-INF/NOTICE");

      assertThat(licence).contains("Apache License", "Version 2.0, January 2004");
      assertThat(notice).startsWith("Tollgate\n");
      List<String> unnamed = names.stream()
          .filter(name -> name.startsWith(SHADED) && name.endsWith(".class"))
          .map(name -> name.substring(SHADED.length()))
          .filter(name -> !name.startsWith("io/tollgate/"))
          .filter(name -> BUNDLED.keySet().stream().noneMatch(name::startsWith))
          .toList();
      assertThat(unnamed).as("bundled classes of a library NOTICE does not name").isEmpty();
      assertThat(notice).contains(BUNDLED.values());
      assertThat(names).contains("META-INF/licenses/ASM", "META-INF/licenses/jedis.txt",
          "META-INF/licenses/redis-authx-core.txt", "META-INF/licenses/jtokkit.txt",
          "META-INF/licenses/slf4j.txt", "META-INF/FastDoubleParser-LICENSE",
          "META-INF/FastDoubleParser-ThirdParty-LICENSE", "META-INF/Schubfach-LICENSE");
      assertThat(names).doesNotContain("LICENSE.txt", "COPYRIGHT.txt", "META-INF/LICENSE.txt",
          "META-INF/NOTICE.txt");
    }
  }

  private static String text(JarFile jar, String name) throws IOException {
    ZipEntry entry = jar.getEntry(name);
    assertThat(entry).as(name).isNotNull();
    try (InputStream in = jar.getInputStream(entry)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
