package io.tollgate.sdkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of this module's apps in a child JVM: {@code -javaagent:} the built agent jar, the
 * app's classes and its SDKs on the class path (nothing of Tollgate), the steps as arguments.
 */
final class ForkedSdkApp {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  private final String mainClass;
  private final Path workDir;
  private final List<String> jvmOptions = new ArrayList<>();
  private final Map<String, String> environment = new HashMap<>();

  ForkedSdkApp(String mainClass, Path workDir) {
    this.mainClass = mainClass;
    this.workDir = workDir;
  }

  ForkedSdkApp withAgent(Path config) {
    Path jar = Path.of(System.getProperty("tollgate.agent.jar", "../target/tollgate-agent.jar"));
    assertThat(jar).as("the agent jar (built by the agent module)").exists();
    jvmOptions.add("-javaagent:" + jar.toAbsolutePath() + "=config=" + config.toAbsolutePath());
    return this;
  }

  ForkedSdkApp env(String name, String value) {
    environment.put(name, value);
    return this;
  }

  /** Runs the steps ({@code chat}, {@code stream}) and waits for the app to end. */
  Run run(String... steps) throws Exception {
    List<String> command = new ArrayList<>();
    // -Dtollgate.it.java=/path/to/bin/java runs the apps on another JDK (as in the agent's tests)
    command.add(System.getProperty("tollgate.it.java",
        Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    // a short-lived JVM on a shared 2-core machine: cheap JIT and GC
    command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx384m"));
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath());
    command.add(mainClass);
    command.addAll(List.of(steps));
    Files.createDirectories(workDir);
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(workDir.toFile())
        .redirectOutput(workDir.resolve("stdout.txt").toFile())
        .redirectError(workDir.resolve("stderr.txt").toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("TOLLGATE_"));
    builder.environment().putAll(environment);
    Process process = builder.start();
    if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("app did not end within " + TIMEOUT + "; stderr: "
          + Files.readString(workDir.resolve("stderr.txt")));
    }
    return new Run(process.exitValue(),
        Files.readAllLines(workDir.resolve("stdout.txt"), StandardCharsets.UTF_8),
        Files.readAllLines(workDir.resolve("stderr.txt"), StandardCharsets.UTF_8));
  }

  /** The apps' classes, then their dependencies as Maven resolved them for this module. */
  private static String classPath() throws IOException {
    String classes = System.getProperty("app.classes", "target/classes");
    String dependencies = Files.readString(Path.of(
        System.getProperty("app.class.path.file", "target/app-class-path.txt"))).trim();
    assertThat(dependencies).as("the apps' class path").isNotEmpty().doesNotContain("tollgate");
    return classes + File.pathSeparator + dependencies;
  }

  /** What the app printed and how it ended. */
  record Run(int exitCode, List<String> stdout, List<String> stderr) {

    /** The {@code step} lines, without their {@code step N kind} prefix. */
    List<String> steps() {
      List<String> steps = new ArrayList<>();
      for (String line : stdout) {
        if (line.startsWith("step ")) {
          steps.add(line);
        }
      }
      return steps;
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\nstdout:\n" + String.join("\n", stdout) + "\nstderr:\n"
          + String.join("\n", stderr);
    }
  }
}
