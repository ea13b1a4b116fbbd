package io.tollgate.testkit.redis;

import io.tollgate.testkit.redis.internal.EmbeddedBinaries;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code redis-server} executable the fixtures run.
 *
 * <p>{@link #resolve()} picks, in order: the binary named by the system property {@value
 * #PROPERTY} (or the environment variable {@value #ENV}); else the first {@code redis-server} on
 * {@code PATH}; else the one shipped in the {@code embedded-redis} jar (Redis 6.2), so the build
 * needs no Redis installed. The setting {@code embedded} forces the shipped binary, to check that
 * the code works against the oldest Redis it may meet:
 *
 * <pre>{@code mvn verify -Dtollgate.redis.binary=embedded}</pre>
 */
public final class RedisBinary {

  /** System property choosing the binary: {@code embedded} or a path to an executable. */
  public static final String PROPERTY = "tollgate.redis.binary";

  /** Environment variable used when {@link #PROPERTY} is not set; same values. */
  public static final String ENV = "TOLLGATE_REDIS_BINARY";

  /** The setting value that forces the binary shipped in the embedded-redis jar. */
  public static final String EMBEDDED = "embedded";

  private static final String EXECUTABLE = "redis-server";
  private static final Pattern VERSION = Pattern.compile("\\bv=(\\S+)");
  private static final long VERSION_TIMEOUT_SECONDS = 10;

  /** Where a binary came from, for messages and for tests that care. */
  public enum Source {
    /** Named by {@link #PROPERTY} / {@link #ENV} or by {@link #at(Path)}. */
    EXPLICIT,
    /** Found on {@code PATH}. */
    PATH,
    /** Extracted from the embedded-redis jar. */
    EMBEDDED
  }

  // Asked once per executable and JVM: every stop() needs the major version.
  private static final Map<Path, String> VERSIONS = new ConcurrentHashMap<>();

  private final Path path;
  private final Source source;

  private RedisBinary(Path path, Source source) {
    this.path = path;
    this.source = source;
  }

  /** The binary chosen by {@value #PROPERTY}, {@value #ENV}, {@code PATH} or the embedded jar. */
  public static RedisBinary resolve() {
    String setting = System.getProperty(PROPERTY);
    if (setting == null || setting.isBlank()) {
      setting = System.getenv(ENV);
    }
    return resolve(setting, System.getenv("PATH"));
  }

  /** {@link #resolve()} with its inputs given, so each branch can be tested. */
  static RedisBinary resolve(String setting, String pathVariable) {
    if (setting != null && !setting.isBlank()) {
      return setting.trim().equals(EMBEDDED) ? embedded() : explicit(setting.trim());
    }
    return onPath(pathVariable).orElseGet(RedisBinary::embedded);
  }

  /** The binary shipped in the embedded-redis jar, extracted once and reused. */
  public static RedisBinary embedded() {
    return new RedisBinary(EmbeddedBinaries.extract(), Source.EMBEDDED);
  }

  /** The first executable {@code redis-server} in the directories of {@code pathVariable}. */
  public static Optional<RedisBinary> onPath(String pathVariable) {
    if (pathVariable == null) {
      return Optional.empty();
    }
    for (String directory : pathVariable.split(Pattern.quote(File.pathSeparator))) {
      if (directory.isBlank()) {
        continue; // an empty entry means "the current directory": never what a test wants
      }
      try {
        Path candidate = Path.of(directory, EXECUTABLE);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(new RedisBinary(candidate, Source.PATH));
        }
      } catch (InvalidPathException ignored) {
        // A malformed PATH entry cannot hold our binary; keep looking.
      }
    }
    return Optional.empty();
  }

  /** A specific executable, e.g. a Redis build under test. */
  public static RedisBinary at(Path executable) {
    Objects.requireNonNull(executable, "executable");
    if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
      throw new IllegalArgumentException(
          "redis-server binary must be an executable file, was " + executable);
    }
    return new RedisBinary(executable, Source.EXPLICIT);
  }

  private static RedisBinary explicit(String setting) {
    Path executable = Path.of(setting);
    if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
      throw new IllegalArgumentException(
          PROPERTY + " (or " + ENV + ") must be '" + EMBEDDED
              + "' or the path of an executable redis-server, was " + setting);
    }
    return new RedisBinary(executable, Source.EXPLICIT);
  }

  public Path path() {
    return path;
  }

  public Source source() {
    return source;
  }

  /** The version the binary reports for {@code --version}, e.g. {@code 7.0.15}; asked once. */
  public String version() {
    return VERSIONS.computeIfAbsent(path, executable -> askVersion());
  }

  /** The major version, e.g. 7; commands and directives differ between majors. */
  public int majorVersion() {
    return Integer.parseInt(version().split("\\.")[0]);
  }

  private String askVersion() {
    Path output = null;
    try {
      // Output to a file, not a pipe: reading a pipe blocks without a bound, a file does not.
      output = Files.createTempFile("tollgate-redis-version-", ".txt");
      Process process = new ProcessBuilder(path.toString(), "--version")
          .redirectErrorStream(true)
          .redirectOutput(output.toFile())
          .start();
      if (!process.waitFor(VERSION_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new RedisFixtureException(
            path + " --version did not exit within " + VERSION_TIMEOUT_SECONDS + " s");
      }
      String printed = Files.readString(output, StandardCharsets.UTF_8);
      Matcher matcher = VERSION.matcher(printed);
      if (!matcher.find()) {
        throw new RedisFixtureException(
            path + " --version printed no version (exit " + process.exitValue() + "): " + printed);
      }
      return matcher.group(1);
    } catch (IOException e) {
      throw new RedisFixtureException("Could not run " + path + " --version", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisFixtureException("Interrupted asking " + path + " for its version", e);
    } finally {
      deleteQuietly(output);
    }
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // A stray temp file of a few bytes is not worth failing a test over.
      }
    }
  }

  @Override
  public String toString() {
    return path + " (" + source + ")";
  }
}
