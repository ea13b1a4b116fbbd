package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.llm.MockLlmServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A configuration Tollgate cannot run: one clear line, then the app as if no agent were there. */
class BadConfigurationIT {

  @AutoClose static final MockLlmServer provider = MockLlmServer.start();

  private static final String CHAT = "{\"model\":\"gpt-4o\","
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    provider.reset();
  }

  @Test
  void disablesItselfWithOneLineNamingTheKeyAndTheAppRunsUntouched() throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), badConfig(false));

    Run run = app().withAgent("config=" + config).run();

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.stderr()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] disabled: tollgate.providers.openai.base-url ");
    assertThat(run.calls()).singleElement().satisfies(call -> assertThat(call.status()).isEqualTo(200));
    assertThat(provider.requests()).singleElement()
        .satisfies(r -> assertThat(r.header("authorization")).isEqualTo("Bearer app-key"));
  }

  @Test
  void abortsStartUpUnderStrict() throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), badConfig(true));

    Run run = app().withAgent("config=" + config).run();

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.stdout()).as("main never ran").doesNotContain("app started");
    assertThat(run.stderr()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] start-up aborted (strict: true): tollgate.providers.openai.base-url ");
    assertThat(provider.requestCount()).isZero();
  }

  /** Strict from outside a file that does not say it: the file is still read before {@code main}. */
  @ParameterizedTest(name = "strict from the {0}")
  @ValueSource(strings = {"agent argument", "environment"})
  void abortsStartUpUnderStrictAskedForOutsideTheFile(String where) throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), badConfig(null));
    ForkedApp app = app();
    if (where.equals("agent argument")) {
      app.withAgent("config=" + config + ",strict=true");
    } else {
      app.withAgent("config=" + config).env("TOLLGATE_STRICT", "true");
    }

    Run run = app.run();

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.stdout()).as("main never ran").doesNotContain("app started");
    assertThat(run.stderr()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] start-up aborted (strict: true): tollgate.providers.openai.base-url ");
    assertThat(provider.requestCount()).isZero();
  }

  @Test
  void withoutAConfigurationSaysWhereItLookedAndStaysOff() throws Exception {
    Run run = app().withAgent(null).run();

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.stderr()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] disabled: no configuration")
        .contains("-Dtollgate.config", "TOLLGATE_CONFIG");
    assertThat(run.calls()).singleElement().satisfies(call -> assertThat(call.status()).isEqualTo(200));
  }

  private ForkedApp app() {
    return ForkedApp.okhttp("4", dir.resolve("app"))
        .env("APP_KEY", "app-key")
        .call("sync", provider.baseUrl() + "/v1/chat/completions", CHAT);
  }

  /** A base URL with spaces in it; {@code strict} null leaves the key out. */
  private String badConfig(Boolean strict) {
    return """
        tollgate:
        %s  providers:
            openai:
              base-url: "%s/v1 with spaces"
              api: openai
              limits:
                requests-per-minute: 1
        """.formatted(strict == null ? "" : "  strict: " + strict + "\n", provider.baseUrl());
  }
}
