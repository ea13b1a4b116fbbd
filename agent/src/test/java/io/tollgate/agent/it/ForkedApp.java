package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.gate.Tenants;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs an app ({@link io.tollgate.agent.it.app.OkHttpApp} unless told otherwise) in a child JVM:
 * the client library line under test on its class path, and (unless told otherwise)
 * {@code -javaagent:} the built agent jar.
 */
final class ForkedApp {

  static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern CALL = Pattern.compile(
      "call (\\d+) (\\w+) status=(\\d+) retry-after=(\\S+) content-type=(\\S+(?: \\S+)*?) body=(\\S*)");

  private final List<String> jvmOptions = new ArrayList<>();
  private final Map<String, String> environment = new HashMap<>();
  private final List<String> arguments = new ArrayList<>();
  /** The folder under it-libs with the client library's jars. */
  private final String libraryLine;
  private final Path workDir;
  private String mainClass = "io.tollgate.agent.it.app.OkHttpApp";
  private String classPath;
  private boolean tollgateCore;

  private ForkedApp(String libraryLine, Path workDir) {
    this.libraryLine = libraryLine;
    this.workDir = workDir;
  }

  /** An app on OkHttp line {@code okhttp} ("3", "4", "5"), its output files in {@code workDir}. */
  static ForkedApp okhttp(String okhttp, Path workDir) {
    return new ForkedApp("okhttp-" + okhttp, workDir);
  }

  /** {@code mainClass} on the jars of it-libs/{@code libraryLine} ("apache-5"). */
  static ForkedApp client(String libraryLine, String mainClass, Path workDir) {
    ForkedApp app = new ForkedApp(libraryLine, workDir);
    app.mainClass = mainClass;
    return app;
  }

  /**
   * {@code mainClass} from {@code classPath} instead of the app on the OkHttp line's class path;
   * {@code arguments} go first.
   */
  static ForkedApp launcher(Path workDir, String classPath, String mainClass, String... arguments) {
    ForkedApp app = new ForkedApp(null, workDir);
    app.classPath = classPath;
    app.mainClass = mainClass;
    app.arguments.addAll(List.of(arguments));
    return app;
  }

  /** Where the OkHttp line's jars are. */
  static Path libs(String okhttp) {
    return libraryJars("okhttp-" + okhttp);
  }

  static Path libraryJars(String libraryLine) {
    return Path.of(System.getProperty("tollgate.it.libs", "target/it-libs"), libraryLine);
  }

  /** The compiled test sources, which hold the apps. */
  static Path appClasses() {
    return Path.of(System.getProperty("tollgate.it.app.classes", "target/test-classes"));
  }

  static Path agentJar() {
    Path jar = Path.of(System.getProperty("tollgate.agent.jar", "target/tollgate-agent.jar"));
    assertThat(jar).as("the agent jar (built in the package phase)").exists();
    return jar;
  }

  /** The version the agent jar was built as, which its manifest and its start-up line name. */
  static String agentVersion() {
    String version = System.getProperty("tollgate.version");
    assertThat(version).as("-Dtollgate.version, set by agent/pom.xml").isNotBlank();
    return version;
  }

  ForkedApp withAgent(String agentArguments) {
    jvmOptions.add("-javaagent:" + agentJar().toAbsolutePath()
        + (agentArguments == null ? "" : "=" + agentArguments));
    return this;
  }

  ForkedApp mainClass(String mainClass) {
    this.mainClass = mainClass;
    return this;
  }

  ForkedApp argument(String argument) {
    arguments.add(argument);
    return this;
  }

  ForkedApp jvmOption(String option) {
    jvmOptions.add(option);
    return this;
  }

  ForkedApp env(String name, String value) {
    environment.put(name, value);
    return this;
  }

  /**
   * The app binds {@code tenant} around its calls through Tollgate's core on its own class path,
   * as an app with the servlet filter does: the agent's relocated core reads it through the bridge.
   */
  ForkedApp bindingTenant(String tenant) {
    tollgateCore = true;
    return env("APP_TENANT", tenant);
  }

  /** One call: {@code mode} is the app's (sync, async, stream ...); {@code json} null for a GET. */
  ForkedApp call(String mode, String url, String json) {
    arguments.add(mode);
    arguments.add(url);
    arguments.add(json == null ? "-" : json);
    return this;
  }

  ForkedApp calls(int count, String mode, String url, String json) {
    for (int i = 0; i < count; i++) {
      call(mode, url, json);
    }
    return this;
  }

  Process start() throws IOException {
    List<String> command = new ArrayList<>();
    // -Dtollgate.it.java=/path/to/bin/java runs the apps on another JDK
    command.add(System.getProperty("tollgate.it.java",
        Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    // a short-lived JVM on a shared 2-core machine: cheap JIT and GC
    command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m"));
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath != null ? classPath : classPath());
    command.add(mainClass);
    command.addAll(arguments);
    Files.createDirectories(workDir);
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(workDir.toFile())
        .redirectOutput(workDir.resolve("stdout.txt").toFile())
        .redirectError(workDir.resolve("stderr.txt").toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("TOLLGATE_"));
    builder.environment().putAll(environment);
    return builder.start();
  }

  Run run() throws Exception {
    return await(start());
  }

  /**
   * Starts every app at once (two JVMs sharing one limit, say), waits for each and checks that
   * each ran to its end.
   */
  static List<Run> runTogether(ForkedApp... apps) throws Exception {
    List<Process> processes = new ArrayList<>();
    for (ForkedApp app : apps) {
      processes.add(app.start());
    }
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < apps.length; i++) {
      Run run = apps[i].await(processes.get(i));
      assertThat(run.completed()).as(run.toString()).isTrue();
      runs.add(run);
    }
    return runs;
  }

  /** The calls of every run, run by run. */
  static List<AppCall> callsOf(List<Run> runs) {
    return runs.stream().flatMap(run -> run.calls().stream()).toList();
  }

  /**
   * Waits until the running app has printed {@code line}, at most {@link #TIMEOUT}: for what the
   * agent serves while the app runs ({@code -Dapp.hold=true}).
   */
  void awaitOutput(Process process, String line) throws Exception {
    Path stdout = workDir.resolve("stdout.txt");
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!Files.readAllLines(stdout, StandardCharsets.UTF_8).contains(line)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new AssertionError("the app did not print " + line + "; " + await(process));
      }
      Thread.sleep(20);
    }
  }

  Run await(Process process) throws Exception {
    if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("app did not end within " + TIMEOUT + "; stderr: "
          + Files.readString(workDir.resolve("stderr.txt")));
    }
    return new Run(process.exitValue(),
        Files.readAllLines(workDir.resolve("stdout.txt"), StandardCharsets.UTF_8),
        Files.readAllLines(workDir.resolve("stderr.txt"), StandardCharsets.UTF_8));
  }

  private String classPath() throws IOException {
    List<String> entries = new ArrayList<>();
    entries.add(appClasses().toString());
    if (tollgateCore) {
      try {
        entries.add(Path.of(Tenants.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      } catch (URISyntaxException e) {
        throw new IOException(e);
      }
    }
    Path libs = libraryJars(libraryLine);
    try (Stream<Path> jars = Files.list(libs)) {
      jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> entries.add(p.toString()));
    }
    assertThat(entries).as("%s jars in %s", libraryLine, libs).hasSizeGreaterThan(1);
    return String.join(File.pathSeparator, entries);
  }

  /** What the app printed and how it ended. */
  record Run(int exitCode, List<String> stdout, List<String> stderr) {

    List<AppCall> calls() {
      List<AppCall> calls = new ArrayList<>();
      for (String line : stdout) {
        Matcher m = CALL.matcher(line);
        if (m.matches()) {
          calls.add(new AppCall(Integer.parseInt(m.group(1)), m.group(2), Integer.parseInt(m.group(3)),
              m.group(4), m.group(5), Base64.getDecoder().decode(m.group(6))));
        }
      }
      return calls;
    }

    List<String> tollgateLines() {
      return stderr.stream().filter(line -> line.startsWith("[tollgate]")).toList();
    }

    boolean completed() {
      return stdout.contains("app done");
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + String.join("\n", stdout)
          + "\n--- stderr\n" + String.join("\n", stderr);
    }
  }

  /** One call as the app saw it through OkHttp's API. */
  record AppCall(int number, String mode, int status, String retryAfter, String contentType,
      byte[] body) {

    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }
}
