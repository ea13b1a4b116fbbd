package io.tollgate.samples.legacy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** target/legacy-agent-app.jar in a child JVM, with or without the built agent; its output parsed. */
final class ForkedLegacyApp {

  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  private ForkedLegacyApp() {}

  /** The app's result: its call lines by id, and everything it printed. */
  record Run(int exitCode, Map<String, Map<String, String>> calls, List<String> stdout, List<String> stderr) {

    Map<String, String> call(String id) {
      assertThat(calls).as("call lines").containsKey(id);
      return calls.get(id);
    }
  }

  static Path appJar() {
    Path jar = Path.of(System.getProperty("sample.app.jar", "target/legacy-agent-app.jar"));
    assertThat(jar).as("the app jar (built in the package phase)").exists();
    return jar;
  }

  static Path agentJar() {
    Path jar = Path.of(System.getProperty("tollgate.agent.jar", "../../agent/target/tollgate-agent.jar"));
    assertThat(jar).as("the agent jar (built by the agent module)").exists();
    return jar;
  }

  /** Runs the app to its end; {@code config} null runs it without the agent. */
  static Run run(Path workDir, Path config, String... appArguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    // -Dtollgate.it.java=/path/to/bin/java runs the app on another JDK (as in the agent's tests)
    command.add(System.getProperty("tollgate.it.java",
        Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    if (config != null) {
      command.add("-javaagent:" + agentJar().toAbsolutePath() + "=config=" + config.toAbsolutePath());
    }
    command.add("-jar");
    command.add(appJar().toAbsolutePath().toString());
    command.addAll(List.of(appArguments));
    Path out = workDir.resolve("stdout.txt");
    Path err = workDir.resolve("stderr.txt");
    ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    // The test's own TOLLGATE_ variables must not reconfigure the child's agent.
    builder.environment().keySet().removeIf(name -> name.startsWith("TOLLGATE_"));
    Process process = builder.start();
    if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the app did not end within " + TIMEOUT + "; stderr: "
          + Files.readString(err, StandardCharsets.UTF_8));
    }
    List<String> stdout = Files.readAllLines(out, StandardCharsets.UTF_8);
    List<String> stderr = Files.readAllLines(err, StandardCharsets.UTF_8);
    Map<String, Map<String, String>> calls = new LinkedHashMap<>();
    for (String line : stdout) {
      if (line.startsWith("call ")) {
        Map<String, String> fields = fields(line.substring(5));
        calls.put(fields.get("id"), fields);
      }
    }
    return new Run(process.exitValue(), calls, stdout, stderr);
  }

  private static Map<String, String> fields(String text) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String pair : text.split(" ")) {
      int equals = pair.indexOf('=');
      fields.put(pair.substring(0, equals), pair.substring(equals + 1));
    }
    return fields;
  }
}
