package io.tollgate.testkit.redis.internal;

import io.tollgate.testkit.redis.RedisFixtureException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * The {@code redis-server} binaries shipped in the jar of {@code
 * com.github.codemonstur:embedded-redis}, extracted once per machine and user.
 *
 * <p>The binary is copied to {@code ${java.io.tmpdir}/tollgate-redis-<user>-<resource>-<size>/}:
 * the name pins the exact build, so every later JVM (and every surefire fork) reuses the file
 * instead of copying 10 MB again, and a different build of the jar gets its own directory. The copy
 * is written next to the target and renamed into place, so a JVM that dies mid-copy, or two JVMs
 * extracting at once, never leave a half-written binary for others to run.
 */
public final class EmbeddedBinaries {

  private static Path extracted; // guarded by EmbeddedBinaries.class

  private EmbeddedBinaries() {}

  /** The embedded binary for this OS and CPU, extracted and executable. */
  public static synchronized Path extract() {
    if (extracted == null || !Files.isExecutable(extracted)) {
      String os = System.getProperty("os.name");
      String arch = System.getProperty("os.arch");
      extracted = extract(resourceFor(os, arch));
    }
    return extracted;
  }

  /** Which resource of the embedded-redis jar runs on {@code osName}/{@code osArch}. */
  public static String resourceFor(String osName, String osArch) {
    String os = osName.toLowerCase(Locale.ROOT);
    String arch = osArch.toLowerCase(Locale.ROOT);
    boolean amd64 = arch.equals("amd64") || arch.equals("x86_64");
    boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
    boolean x86 = arch.equals("x86") || arch.matches("i[3-6]86");
    if (os.contains("linux") && amd64) {
      return "/redis-server-6.2.6-v5-linux-amd64";
    }
    if (os.contains("linux") && arm64) {
      return "/redis-server-6.2.7-linux-arm64";
    }
    if (os.contains("linux") && x86) {
      return "/redis-server-6.2.7-linux-386";
    }
    if (os.contains("mac") && amd64) {
      return "/redis-server-6.2.6-v5-darwin-amd64";
    }
    if (os.contains("mac") && arm64) {
      return "/redis-server-6.2.6-v5-darwin-arm64";
    }
    throw new RedisFixtureException(
        "embedded-redis ships no redis-server for os.name=" + osName + ", os.arch=" + osArch
            + "; put redis-server on PATH or set -Dtollgate.redis.binary=/path/to/redis-server");
  }

  private static Path extract(String resource) {
    URL url = EmbeddedBinaries.class.getResource(resource);
    if (url == null) {
      throw new RedisFixtureException(
          "Resource " + resource + " not found: is com.github.codemonstur:embedded-redis on the"
              + " classpath?");
    }
    try {
      URLConnection connection = url.openConnection();
      long size = connection.getContentLengthLong();
      Path directory = cacheDirectory(resource.substring(1) + "-" + size);
      Path target = directory.resolve("redis-server");
      if (Files.isExecutable(target) && Files.size(target) == size) {
        return target;
      }
      Path partial = Files.createTempFile(directory, "redis-server-", ".part");
      try (InputStream in = connection.getInputStream()) {
        Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
      }
      Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwx------"));
      moveIntoPlace(partial, target);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not extract " + resource, e);
    }
  }

  private static Path cacheDirectory(String build) throws IOException {
    String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
    Path directory =
        Path.of(System.getProperty("java.io.tmpdir"), "tollgate-redis-" + user + "-" + build);
    Files.createDirectories(directory);
    // /tmp is shared: never run a binary from a directory someone else could have planted.
    String owner = Files.getOwner(directory, LinkOption.NOFOLLOW_LINKS).getName();
    if (!owner.equals(System.getProperty("user.name"))) {
      return Files.createTempDirectory("tollgate-redis-" + user + "-");
    }
    return directory;
  }

  private static void moveIntoPlace(Path partial, Path target) throws IOException {
    try {
      Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
