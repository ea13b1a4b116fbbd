package io.tollgate.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * Every jar a release publishes carries the project's LICENSE and NOTICE under META-INF, byte for
 * byte: the main jars (the agent's shaded one included) in every build, and under -Prelease their
 * sources and javadoc jars. The paths come from this module's pom, which lists the published
 * modules.
 */
class PublishedJarsIT {

  private static final Path ROOT = Path.of("..");

  @Test
  void everyPublishedJarCarriesTheLicenceAndTheNotice() throws IOException {
    String licence = Files.readString(ROOT.resolve("LICENSE"));
    String notice = Files.readString(ROOT.resolve("NOTICE"));

    for (Path jar : published()) {
      assertThat(jar).as("a jar the reactor built").isRegularFile();
      try (JarFile contents = new JarFile(jar.toFile())) {
        assertThat(entry(contents, "META-INF/LICENSE")).as(jar + ": META-INF/LICENSE").isEqualTo(licence);
        assertThat(entry(contents, "META-INF/NOTICE")).as(jar + ": META-INF/NOTICE").isEqualTo(notice);
      }
    }
  }

  private static List<Path> published() {
    String jars = System.getProperty("tollgate.published.jars", "");
    assertThat(jars).as("-Dtollgate.published.jars, set by release-check/pom.xml").isNotBlank();
    List<Path> paths = new ArrayList<>();
    for (String list : List.of(jars, System.getProperty("tollgate.published.attached", ""))) {
      for (String path : list.split(",")) {
        if (!path.isBlank()) {
          paths.add(Path.of(path.strip()));
        }
      }
    }
    return paths;
  }

  private static String entry(JarFile jar, String name) throws IOException {
    ZipEntry entry = jar.getEntry(name);
    assertThat(entry).as(jar.getName() + ": " + name + " is missing").isNotNull();
    try (InputStream in = jar.getInputStream(entry)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
