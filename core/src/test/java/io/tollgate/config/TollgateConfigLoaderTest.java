package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where configuration comes from, and what happens when it cannot be read. */
class TollgateConfigLoaderTest {

  @Test
  void loadsFromTheClassPath() {
    assertThat(Loaders.with(Loaders.EXAMPLE_ENV).load("classpath:/io/tollgate/config/config-md-example.yaml"))
        .isEqualTo(Loaders.example());
  }

  @Test
  void loadsFromAGivenClassLoader() {
    TollgateConfig config = TollgateConfigLoader.builder()
        .environment(Loaders.EXAMPLE_ENV)
        .classLoader(new ClassLoader(null) {
          @Override
          public InputStream getResourceAsStream(String name) {
            return name.equals("only-here.yaml")
                ? new ByteArrayInputStream("tollgate:\n  mode: off\n".getBytes(StandardCharsets.UTF_8)) : null;
          }
        })
        .build()
        .load("classpath:only-here.yaml");

    assertThat(config.mode()).isEqualTo(Mode.OFF);
  }

  @Test
  void aMissingResourceIsNamed() {
    assertThatThrownBy(() -> Loaders.with(Map.of()).load("classpath:nope/tollgate.yaml"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("classpath:nope/tollgate.yaml is not on the class path");
  }

  @Test
  void aMissingFileIsNamed(@TempDir Path dir) {
    Path file = dir.resolve("missing.yaml");

    assertThatThrownBy(() -> Loaders.with(Map.of()).load(file.toString()))
        .hasMessage(file + " does not exist");
  }

  @Test
  void anEmptyFileIsAnError(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("empty.yaml"), "# nothing yet\n");

    assertThatThrownBy(() -> Loaders.with(Map.of()).load(file))
        .hasMessage(file + " is empty: the configuration sits under a tollgate: root");
  }

  @Test
  void invalidYamlGivesItsPlaceButNotTheLineItself() {
    String yaml = "tollgate:\n  providers:\n    openai:\n      api-key: sk-do-not-print: x\n";

    assertThatThrownBy(() -> Loaders.yaml(yaml))
        .hasMessage("YAML text is not valid YAML at line 4, column 31: mapping values are not allowed here")
        .hasMessageNotContaining("sk-do-not-print");
  }

  @Test
  void aRootThatIsNotAMappingIsAnError() {
    assertThatThrownBy(() -> Loaders.yaml("- tollgate\n"))
        .hasMessage("YAML text must be a YAML mapping with the root key tollgate:");
  }

  @Test
  void moreThanOneDocumentIsAnError() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  mode: off\n---\ntollgate:\n  mode: enforce\n"))
        .hasMessage("YAML text holds more than one YAML document; keep the configuration in one");
  }

  @Test
  void keepsYamlScalarsAsWritten() {
    // YAML 1.1 reads an unquoted off as false and yes as true; Tollgate reads the text.
    assertThat(Loaders.yaml("tollgate:\n  mode: off\n").mode()).isEqualTo(Mode.OFF);
    assertThat(Loaders.yaml("tollgate:\n  mode: 'shadow'\n").mode()).isEqualTo(Mode.SHADOW);
  }

  @Test
  void theStaticEntryPointReadsTheProcessEnvironment() {
    assertThat(TollgateConfig.load("classpath:io/tollgate/config/no-secrets.yaml").mode())
        .isEqualTo(Mode.SHADOW);
  }
}
