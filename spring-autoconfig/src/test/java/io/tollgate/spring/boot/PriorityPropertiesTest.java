package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.ConfigException;
import io.tollgate.config.PriorityConfig;
import io.tollgate.config.TollgateConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code tollgate.priority} binds through Spring's properties and is checked as the agent's file is. */
class PriorityPropertiesTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurationTest.TOLLGATE)
      .withPropertyValues("tollgate.providers.openai.base-url=http://127.0.0.1:9/v1");

  @Test
  void everyKeyBinds() {
    runner.withPropertyValues(
            "tollgate.priority.header=X-Priority",
            "tollgate.priority.default=normal",
            "tollgate.priority.classes.interactive=1.0",
            "tollgate.priority.classes.normal=0.8",
            "tollgate.priority.classes.batch=0.5",
            "tollgate.priority.tenants.nightly-etl=batch")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(TollgateConfig.class).priority()).hasValue(PriorityConfig.builder()
              .header("X-Priority").defaultClass("normal").priorityClass("interactive", 1.0)
              .priorityClass("normal", 0.8).priorityClass("batch", 0.5)
              .tenant("nightly-etl", "batch").build());
        });
  }

  @Test
  void withoutTheSectionNoClassApplies() {
    runner.run(context -> assertThat(context.getBean(TollgateConfig.class).priority()).isEmpty());
  }

  @Test
  void aShareAboveOneFailsNamingItsKey() {
    runner.withPropertyValues("tollgate.priority.classes.batch=1.5").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .isInstanceOf(ConfigException.class)
          .hasMessage("tollgate.priority.classes.batch must be a share more than 0 and at most 1,"
              + " was 1.5");
    });
  }
}
