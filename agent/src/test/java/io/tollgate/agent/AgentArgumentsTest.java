package io.tollgate.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class AgentArgumentsTest {

  @Test
  void readsConfigAndStrict() {
    AgentArguments arguments = AgentArguments.parse("config=/etc/tollgate.yaml, strict=true");

    assertThat(arguments.config()).contains("/etc/tollgate.yaml");
    assertThat(arguments.strict()).isTrue();
  }

  @Test
  void takesABareValueAsTheConfigLocation() {
    assertThat(AgentArguments.parse("classpath:tollgate.yaml").config()).contains("classpath:tollgate.yaml");
  }

  @Test
  void noArgumentsIsNoConfigAndNotStrict() {
    assertThat(AgentArguments.parse(null)).isEqualTo(AgentArguments.NONE);
    assertThat(AgentArguments.parse("  ")).isEqualTo(AgentArguments.NONE);
  }

  @Test
  void rejectsUnknownArgumentsByName() {
    assertThatThrownBy(() -> AgentArguments.parse("config=/a.yaml,mode=shadow"))
        .hasMessage("agent argument mode is unknown; known: config, strict");
    assertThatThrownBy(() -> AgentArguments.parse("strict=yes"))
        .hasMessage("agent argument strict must be true or false, was yes");
  }

  @Test
  void configLocationPrefersTheArgumentThenThePropertyThenTheEnvironment() {
    Properties properties = new Properties();
    properties.setProperty("tollgate.config", "/from/property.yaml");
    Map<String, String> environment = Map.of("TOLLGATE_CONFIG", "/from/env.yaml");

    assertThat(ConfigLocation.resolve(AgentArguments.parse("config=/from/arg.yaml"), properties, environment))
        .contains("/from/arg.yaml");
    assertThat(ConfigLocation.resolve(AgentArguments.NONE, properties, environment))
        .contains("/from/property.yaml");
    assertThat(ConfigLocation.resolve(AgentArguments.NONE, new Properties(), environment))
        .contains("/from/env.yaml");
    assertThat(ConfigLocation.resolve(AgentArguments.NONE, new Properties(), Map.of()))
        .isEqualTo(Optional.empty());
  }

  @Test
  void foldsMultiLineMessagesOntoOneLine() {
    assertThat(AgentLog.oneLine("tollgate.x is wrong\n  at line 3:\n    x: 1\n"))
        .isEqualTo("tollgate.x is wrong | at line 3: | x: 1");
  }
}
