package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.gate.AttachedAgent;
import io.tollgate.gate.Gate;
import io.tollgate.spring.boot.app.AgentAttachedApp;
import io.tollgate.spring.boot.client.TollgateClientHttpRequestInterceptor;
import io.tollgate.spring.boot.client.WebClientHook;
import io.tollgate.testkit.llm.MockLlmServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Runs in a JVM started with {@code -javaagent:tollgate-agent.jar} (the failsafe execution of this
 * module), and starts another such JVM for an app whose agent knows the mock provider's address.
 * The agent limits the JDK {@code HttpClient}, OkHttp and Apache HttpClient itself, so the starter
 * hooks Spring's clients only over the transports the agent does not see: each call is limited
 * exactly once.
 */
class AgentAttachedIT {

  @Test
  void theStarterKeepsItsHooksWhileTheAgentRuns() throws Exception {
    assertThat(AttachedAgent.gating()).as("the agent started in this JVM").isTrue();

    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurationTest.TOLLGATE)
        .withPropertyValues("tollgate.providers.openai.base-url=http://127.0.0.1:9/v1")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).hasSingleBean(Gate.class);
          assertThat(context).hasSingleBean(TollgateClientHttpRequestInterceptor.class);
          assertThat(context).hasSingleBean(WebClientHook.class);
        });
  }

  /**
   * The agent allows 3 calls an hour to {@code openai}, the starter 2 to each provider: 3 of 4 JDK
   * calls reaching the mock show the agent's limit alone (the starter's as well would have let
   * only 2 through); 2 of 3 over {@code HttpURLConnection} and Reactor Netty show the starter's.
   */
  @Test
  void eachCallIsLimitedOnceByTheAgentOrTheStarter(@TempDir Path dir) throws Exception {
    try (MockLlmServer openai = MockLlmServer.start();
        MockLlmServer plain = MockLlmServer.start();
        MockLlmServer reactive = MockLlmServer.start()) {
      Path agentConfig = dir.resolve("agent.yaml");
      Files.writeString(agentConfig, "tollgate:\n  providers:\n    openai:\n      base-url: " + openai.baseUrl()
          + "\n      limits:\n        requests-per-hour: 3\n");
      Path log = dir.resolve("app.log");
      Process app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-javaagent:" + System.getProperty("tollgate.agent.jar") + "=config=" + agentConfig,
          "-cp", System.getProperty("java.class.path"),
          AgentAttachedApp.class.getName(), openai.baseUrl(), plain.baseUrl(), reactive.baseUrl())
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .start();
      if (!app.waitFor(180, TimeUnit.SECONDS)) {
        app.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
      List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
      assertThat(app.exitValue()).as(String.join("\n", output)).isZero();

      assertThat(output).contains("jdk=200,200,200,429", "reactor=200,200,429", "simple=200,200,429");
      assertThat(openai.requestCount()).isEqualTo(3);
      assertThat(reactive.requestCount()).isEqualTo(2);
      assertThat(plain.requestCount()).isEqualTo(2);
    }
  }
}
