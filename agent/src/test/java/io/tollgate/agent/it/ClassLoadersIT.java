package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.llm.MockLlmServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OkHttp where containers and fat-jar launchers put it: in a class loader below the system one,
 * out of the agent's sight. Two such loaders, OkHttp 3.14 in one and 5.x in the other, in one JVM.
 */
class ClassLoadersIT {

  @AutoClose static final MockLlmServer provider = MockLlmServer.start();

  private static final String CHAT = "{\"model\":\"gpt-4o\","
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

  @TempDir Path dir;

  @Test
  void injectsTheHelpersIntoEachLoaderThatHasOkHttpAndAllShareTheJvmsGate() throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          providers:
            openai:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 1
        """.formatted(provider.baseUrl()));
    // the launcher alone on the class path; the app only inside the child loaders
    Path launcher = copyClasses(dir.resolve("launcher"), "ChildLoaderLauncher");
    Path app = copyClasses(dir.resolve("app-classes"), "OkHttpApp");

    Run run = ForkedApp.launcher(dir.resolve("run"), launcher.toString(),
            "io.tollgate.agent.it.app.ChildLoaderLauncher",
            app.toString(), ForkedApp.libs("3").toAbsolutePath().toString(),
            ForkedApp.libs("5").toAbsolutePath().toString(), "--")
        .withAgent("config=" + config)
        .call("sync", provider.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.stdout()).as(run.toString()).containsSubsequence(
        "loader okhttp-3", "app done", "loader okhttp-5", "app done");
    assertThat(run.tollgateLines()).as(run.toString()).singleElement().asString().startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::status)
        .as("one request an hour: OkHttp 3's call took it, OkHttp 5's is limited")
        .containsExactly(200, 429);
    assertThat(provider.requestCount()).isEqualTo(1);
  }

  private static Path copyClasses(Path target, String simpleName) throws Exception {
    Path source = ForkedApp.appClasses().resolve("io/tollgate/agent/it/app");
    Path into = Files.createDirectories(target.resolve("io/tollgate/agent/it/app"));
    try (Stream<Path> files = Files.list(source)) {
      for (Path file : files.filter(f -> f.getFileName().toString().startsWith(simpleName)).toList()) {
        Files.copy(file, into.resolve(file.getFileName()));
      }
    }
    return target;
  }
}
