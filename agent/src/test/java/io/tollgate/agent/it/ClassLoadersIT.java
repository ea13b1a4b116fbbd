package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.llm.MockLlmServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OkHttp where the agent does not find it at start-up: in class loaders below the system one (as
 * containers and fat-jar launchers load it), and already loaded when the agent is attached late.
 */
class ClassLoadersIT {

  @AutoClose static final MockLlmServer provider = MockLlmServer.start();

  private static final String CHAT = "{\"model\":\"gpt-4o\","
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    provider.reset();
  }

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
    Path app = copyClasses(dir.resolve("app-classes"), "OkHttpApp", "AppHeaders");

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

  @Test
  void leavesALoaderThatCannotSeeTheAgentAlone() throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          providers:
            openai:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 1
        """.formatted(provider.baseUrl()));
    Path launcher = copyClasses(dir.resolve("launcher"), "ChildLoaderLauncher");
    Path app = copyClasses(dir.resolve("app-classes"), "OkHttpApp", "AppHeaders");

    Run run = ForkedApp.launcher(dir.resolve("run"), launcher.toString(),
            "io.tollgate.agent.it.app.ChildLoaderLauncher",
            app.toString(), ForkedApp.libs("4").toAbsolutePath().toString(), "--")
        .jvmOption("-Dlauncher.isolated=true")
        .withAgent("config=" + config)
        .calls(2, "sync", provider.baseUrl() + "/v1/chat/completions", CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.stderr()).as("no failure of ours, not even a suppressed one")
        .singleElement().asString().startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::status).containsExactly(200, 200);
    assertThat(provider.requestCount()).isEqualTo(2);
  }

  @Test
  void attachedToARunningAppRetransformsTheOkHttpClassesAlreadyLoaded() throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          providers:
            openai:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 1
        """.formatted(provider.baseUrl()));

    Run run = ForkedApp.okhttp("4", dir.resolve("run"))
        .mainClass("io.tollgate.agent.it.app.LateAttachApp")
        .jvmOption("-Djdk.attach.allowAttachSelf=true")
        .argument(ForkedApp.agentJar().toAbsolutePath().toString())
        .argument("config=" + config)
        .argument(provider.baseUrl() + "/v1/chat/completions")
        .argument(CHAT)
        .run();

    assertThat(run.completed()).as(run.toString()).isTrue();
    assertThat(run.tollgateLines()).as(run.toString()).singleElement().asString().startsWith("[tollgate] on:");
    assertThat(run.calls()).extracting(AppCall::mode, AppCall::status)
        .as("a client built after the attach is limited (one request an hour); one built before "
            + "keeps the interceptors it had")
        .containsExactly(tuple("before", 200), tuple("after", 200), tuple("after", 429),
            tuple("before", 200));
    assertThat(provider.requestCount()).isEqualTo(3);
  }

  /** The classes of the apps whose names start with one of {@code simpleNames}, copied under {@code target}. */
  static Path copyClasses(Path target, String... simpleNames) throws Exception {
    Path source = ForkedApp.appClasses().resolve("io/tollgate/agent/it/app");
    Path into = Files.createDirectories(target.resolve("io/tollgate/agent/it/app"));
    try (Stream<Path> files = Files.list(source)) {
      for (Path file : files.filter(f -> Stream.of(simpleNames)
          .anyMatch(name -> f.getFileName().toString().startsWith(name))).toList()) {
        Files.copy(file, into.resolve(file.getFileName()));
      }
    }
    return target;
  }
}
