package io.tollgate.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StrictFlagTest {

  @TempDir Path dir;

  @Test
  void isReadFromADocumentThatFailsValidation() throws Exception {
    Path file = Files.writeString(dir.resolve("t.yaml"),
        "tollgate:\n  strict: true\n  providers:\n    openai:\n      base-url: nope\n      bogus: 1\n");

    assertThat(StrictFlag.of(AgentArguments.NONE, file.toString(), Map.of())).isTrue();
  }

  @Test
  void isFalseWhenNotWrittenOrUnreadable() throws Exception {
    Path file = Files.writeString(dir.resolve("t.yaml"), "tollgate:\n  redis: [unclosed\n");

    assertThat(StrictFlag.of(AgentArguments.NONE, file.toString(), Map.of())).isFalse();
    assertThat(StrictFlag.of(AgentArguments.NONE, dir.resolve("missing.yaml").toString(), Map.of())).isFalse();
  }

  @Test
  void theArgumentAndTheEnvironmentCanAskForIt() {
    assertThat(StrictFlag.of(AgentArguments.parse("strict=true"), "/missing.yaml", Map.of())).isTrue();
    assertThat(StrictFlag.of(AgentArguments.NONE, "/missing.yaml", Map.of("TOLLGATE_STRICT", "true"))).isTrue();
  }
}
