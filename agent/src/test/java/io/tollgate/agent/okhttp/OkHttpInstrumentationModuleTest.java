package io.tollgate.agent.okhttp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class OkHttpInstrumentationModuleTest {

  /** A helper class not injected would be loaded through the agent's loader, without OkHttp. */
  @Test
  void listsEveryCompiledHelperClass() throws Exception {
    Path helpers = Path.of("target/classes/io/tollgate/agent/okhttp/helpers");
    try (Stream<Path> files = Files.list(helpers)) {
      var compiled = files.map(p -> p.getFileName().toString())
          .filter(name -> name.endsWith(".class") && !name.equals("package-info.class"))
          .map(name -> "io.tollgate.agent.okhttp.helpers." + name.substring(0, name.length() - 6))
          .toList();
      assertThat(new OkHttpInstrumentationModule().helperClassNames())
          .containsExactlyInAnyOrderElementsOf(compiled);
    }
  }
}
