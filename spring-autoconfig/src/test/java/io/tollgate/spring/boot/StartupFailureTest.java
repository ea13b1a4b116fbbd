package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.config.ConfigException;
import io.tollgate.spring.boot.app.TestApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A bad property stops the app before it serves anything, and Boot's report names it. */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureTest {

  @Test
  void badValueFailsStartUpNamingTheProperty(CapturedOutput output) {
    assertThatThrownBy(() -> run("--tollgate.providers.openai.limits.requests-per-minute=-5"))
        .hasRootCauseInstanceOf(ConfigException.class);
    assertThat(output.getAll())
        .contains("APPLICATION FAILED TO START")
        .contains("Tollgate cannot run with this configuration: "
            + "tollgate.providers.openai.limits.requests-per-minute must be > 0, was -5")
        .contains("Fix the property tollgate.providers.openai.limits.requests-per-minute");
  }

  @Test
  void aShortStatusTokenFailsStartUpNamingItsKeyButNotItsValue(CapturedOutput output) {
    assertThatThrownBy(() -> run("--tollgate.status.token=Zq8-secret-x"))
        .hasRootCauseInstanceOf(ConfigException.class);
    assertThat(output.getAll())
        .contains("APPLICATION FAILED TO START")
        .contains("Tollgate cannot run with this configuration: tollgate.status.token must be at"
            + " least 16 printable ASCII characters without spaces, was one of 12")
        .contains("Fix the property tollgate.status.token")
        .doesNotContain("Zq8-secret-x");
  }

  @Test
  void unknownKeyFailsStartUpNamingIt(CapturedOutput output) {
    assertThatThrownBy(() -> run("--tollgate.providers.openai.limits.request-per-minute=5"));
    assertThat(output.getAll())
        .contains("APPLICATION FAILED TO START")
        .contains("tollgate.providers.openai.limits.request-per-minute");
  }

  private static void run(String badProperty) {
    SpringApplication app = new SpringApplication(TestApp.class);
    app.setWebApplicationType(WebApplicationType.NONE);
    app.run("--spring.main.banner-mode=off", "--tollgate.providers.openai.base-url=http://127.0.0.1:9", badProperty)
        .close();
  }
}
