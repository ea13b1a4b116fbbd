package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The starter gates Spring's clients, whatever their transport, and marks the attempts it sends
 * through the agent's bridge; the agent gates every other client: each call is limited exactly
 * once.
 */
class AgentAttachedIT {

  @Test
  void theStarterKeepsItsHooksWhileTheAgentRuns() throws Exception {
    assertThat(Class.forName("io.tollgate.agent.bridge.TollgateBridge", false, ClassLoader.getSystemClassLoader()))
        .as("the agent is attached to this JVM").isNotNull();

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
   * The agent allows 1 call an hour to {@code openai}, the starter 2 to each provider: the starter
   * gates Spring's clients whatever their transport (the JDK {@code HttpClient} under a RestClient
   * and under a WebClient, {@code HttpURLConnection}, Reactor Netty) and the agent lets those
   * attempts pass (had it gated them too, its limit of 1 would show); the app's own JDK client is
   * the agent's alone (1 of 2).
   */
  @Test
  void eachCallIsLimitedOnceTheSpringClientsByTheStarter(@TempDir Path dir) throws Exception {
    try (MockLlmServer openai = MockLlmServer.start();
        MockLlmServer plain = MockLlmServer.start();
        MockLlmServer reactive = MockLlmServer.start()) {
      Path agentConfig = dir.resolve("agent.yaml");
      Files.writeString(agentConfig, "tollgate:\n  providers:\n    openai:\n      base-url: " + openai.baseUrl()
          + "\n      limits:\n        requests-per-hour: 1\n");
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

      assertThat(output).contains("jdk=200,200,429", "reactor=200,200,429", "raw=200,429",
          "simple=200,200,429", "webjdk=200,200,429");
      assertThat(openai.requestCount()).isEqualTo(5);
      assertThat(reactive.requestCount()).isEqualTo(2);
      assertThat(plain.requestCount()).isEqualTo(2);
    }
  }
}
