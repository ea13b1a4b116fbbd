package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.llm.MockLlmServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent starts on a thread of its own while the app starts (docs/agent.md, "Start-up"). A
 * client the app builds before that is done, here in its main class's static initializer, before
 * {@code main} and while that class's initialisation lock is held, is instrumented as it loads;
 * its calls wait for the start and are limited like any other: no call escapes, and nothing
 * deadlocks. When the start fails, they go on untouched.
 */
class EarlyClientsIT {

  @AutoClose static final MockLlmServer provider = MockLlmServer.start();

  private static final String CHAT = "{\"model\":\"gpt-4o\","
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    provider.reset();
  }

  @Test
  void anOkHttpClientBuiltBeforeMainIsLimited() throws Exception {
    Run run = okHttpApp().withAgent("config=" + twoRequestsAnHour()).run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200, 200, 429);
    assertThat(provider.requestCount()).isEqualTo(2);
    assertThat(run.stderr()).as(run.toString()).singleElement().asString().startsWith("[tollgate] on:");
    assertThat(run.stdout()).as(run.toString())
        .contains("a builder made now starts with 1 interceptors");
  }

  @Test
  void withoutRedisNoJedisClientClassIsLoaded() throws Exception {
    Path classLog = dir.resolve("classes.txt");
    Run run = okHttpApp().jvmOption("-Xlog:class+load:file=" + classLog)
        .withAgent("config=" + twoRequestsAnHour()).run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200, 200, 429);
    List<String> loaded = Files.readAllLines(classLog);
    assertThat(loaded).as("the in-memory limiter decided")
        .anyMatch(line -> line.contains(" io.tollgate.agent.shaded.io.tollgate.limiter.InMemoryRateLimiter "));
    // Jedis stays behind io.tollgate.redis, whose classes load only with Redis configured
    assertThat(loaded).filteredOn(line -> line.contains(".redis.clients."))
        .extracting(line -> line.replaceAll(".*\\] (\\S+) source.*", "$1"))
        .isEmpty();
  }

  @Test
  void aJdkHttpClientBuiltBeforeMainIsLimited() throws Exception {
    Run run = jdkApp().withAgent("config=" + twoRequestsAnHour()).run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200, 200, 429);
    assertThat(provider.requestCount()).isEqualTo(2);
    assertThat(run.stderr()).as(run.toString()).singleElement().asString().startsWith("[tollgate] on:");
  }

  @Test
  void whenTheConfigurationFailsTheEarlyClientGoesOnUntouched() throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          providers:
            openai:
              base-url: %s
              limits:
                requests-per-hour: 2
                requests-per-fortnight: 1
        """.formatted(provider.baseUrl()));

    Run run = okHttpApp().withAgent("config=" + config).run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200, 200, 200);
    assertThat(provider.requestCount()).isEqualTo(3);
    assertThat(run.stderr()).as(run.toString()).singleElement().asString()
        .startsWith("[tollgate] disabled: tollgate.providers.openai.limits.requests-per-fortnight ");
    // the advice was taken out again: OkHttp's builder is back to its own code
    assertThat(run.stdout()).as(run.toString())
        .contains("a builder made now starts with 0 interceptors");
  }

  @Test
  void withModeOffTheEarlyClientGoesOnUntouched() throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          mode: off
          providers:
            openai:
              base-url: %s
              limits:
                requests-per-hour: 2
        """.formatted(provider.baseUrl()));

    Run run = jdkApp().withAgent("config=" + config).run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200, 200, 200);
    assertThat(run.stderr()).as(run.toString()).containsExactly(
        "[tollgate] off (tollgate.mode: off in " + config + "): nothing instrumented");
  }

  private Path twoRequestsAnHour() throws Exception {
    return Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          providers:
            openai:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 2
        """.formatted(provider.baseUrl()));
  }

  private ForkedApp okHttpApp() {
    return ForkedApp.okhttp("4", dir.resolve("app"))
        .mainClass("io.tollgate.agent.it.app.EarlyOkHttpApp")
        .argument(provider.baseUrl() + "/v1/chat/completions").argument(CHAT).argument("3");
  }

  private ForkedApp jdkApp() {
    return ForkedApp.launcher(dir.resolve("app"), ForkedApp.appClasses().toString(),
        "io.tollgate.agent.it.app.EarlyJdkHttpClientApp",
        provider.baseUrl() + "/v1/chat/completions", CHAT, "3");
  }
}
