package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.ConfigException;
import io.tollgate.config.StatusConfig;
import io.tollgate.config.TollgateConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code tollgate.status} binds through Spring's properties and is checked as the agent's file is. */
class StatusPropertiesTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurationTest.TOLLGATE)
      .withPropertyValues("tollgate.providers.openai.base-url=http://127.0.0.1:9/v1");

  @Test
  void everyKeyBinds() {
    runner.withPropertyValues(
            "tollgate.status.port=8199",
            "tollgate.status.bind=0.0.0.0",
            "tollgate.status.token=0123456789abcdef-XYZ",
            "tollgate.status.path=/tollgate/status")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(TollgateConfig.class).status()).isEqualTo(StatusConfig.builder()
              .port(8199).bind("0.0.0.0").token("0123456789abcdef-XYZ").path("/tollgate/status").build());
        });
  }

  @Test
  void unsetOrAnEmptyTokenServesThePageNowhereButTheActuator() {
    runner.withPropertyValues("tollgate.status.token=").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(TollgateConfig.class).status()).isEqualTo(StatusConfig.ofDefaults());
    });
  }

  @Test
  void aPortBeyondLoopbackWithoutATokenFailsNamingTheToken() {
    runner.withPropertyValues("tollgate.status.port=8199", "tollgate.status.bind=0.0.0.0")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause()
              .isInstanceOf(ConfigException.class)
              .hasMessage("tollgate.status.token is required when the status page is served beyond"
                  + " loopback (bind 0.0.0.0); set it, e.g. token: ${TOLLGATE_STATUS_TOKEN}");
        });
  }

  @Test
  void aPathThatIsNotAbsoluteFailsNamingIt() {
    runner.withPropertyValues("tollgate.status.path=tollgate/status").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .isInstanceOf(ConfigException.class)
          .hasMessage("tollgate.status.path must be a path such as /tollgate/status (letters,"
              + " digits, . _ ~ - and /, not ending in /), was tollgate/status");
    });
  }
}
