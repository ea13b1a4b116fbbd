package io.tollgate.agent.apache4;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ApacheHttpClient4InstrumentationModuleTest {

  /** A helper class not injected would be loaded through the agent's loader, without HttpClient. */
  @Test
  void listsEveryCompiledHelperClass() throws Exception {
    Path helpers = Path.of("target/classes/io/tollgate/agent/apache4/helpers");
    try (Stream<Path> files = Files.list(helpers)) {
      var compiled = files.map(p -> p.getFileName().toString())
          .filter(name -> name.endsWith(".class") && !name.equals("package-info.class"))
          .map(name -> "io.tollgate.agent.apache4.helpers." + name.substring(0, name.length() - 6))
          .toList();
      assertThat(new ApacheHttpClient4InstrumentationModule().helperClassNames())
          .containsExactlyInAnyOrderElementsOf(compiled);
    }
  }
}
