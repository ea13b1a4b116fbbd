package io.tollgate.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * A script from {@code lua/}, read from the classpath once, with the SHA-1 that EVALSHA names.
 * The build writes each script's SHA-1 beside it ({@link #main}, run by core's pom at {@code
 * process-classes}): hashing it at start-up, on a JVM that has not yet set up its digests, cost
 * about 20 ms of CPU before the first call on Redis (docs/benchmarks.md).
 */
public final class LuaScript {

  private static final String RESOURCE_DIRECTORY = "/io/tollgate/lua/";
  private static final String SHA1_SUFFIX = ".sha1";

  private final String name;
  private final String source;
  private final String sha1;
  // Sent as bytes: the client would encode the strings again on every call.
  private final byte[] sourceBytes;
  private final byte[] sha1Bytes;

  private LuaScript(String name, String source, String sha1) {
    this.name = name;
    this.source = source;
    this.sha1 = sha1;
    this.sourceBytes = source.getBytes(StandardCharsets.UTF_8);
    this.sha1Bytes = sha1.getBytes(StandardCharsets.US_ASCII);
  }

  /** Loads {@code lua/<name>.lua} and its SHA-1 as packaged in the core jar. */
  public static LuaScript load(String name) {
    String path = RESOURCE_DIRECTORY + name + ".lua";
    return new LuaScript(name, resource(path), resource(path + SHA1_SUFFIX));
  }

  private static String resource(String path) {
    try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException(path + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /** The SHA-1 of {@code source} as Redis names a script: 40 lower-case hex digits. */
  public static String sha1(String source) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-1");
      return HexFormat.of().formatHex(digest.digest(source.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-1", e);
    }
  }

  /** Writes {@code <script>.lua.sha1} beside every script in the directory {@code args[0]}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: LuaScript <directory of the .lua scripts>");
    }
    List<Path> scripts;
    try (Stream<Path> files = Files.list(Path.of(args[0]))) {
      scripts = files.filter(file -> file.toString().endsWith(".lua")).toList();
    }
    if (scripts.isEmpty()) {
      throw new IOException("no .lua script in " + args[0]);
    }
    for (Path script : scripts) {
      String source = Files.readString(script, StandardCharsets.UTF_8);
      Files.writeString(script.resolveSibling(script.getFileName() + SHA1_SUFFIX), sha1(source),
          StandardCharsets.US_ASCII);
    }
  }

  public String name() {
    return name;
  }

  public String source() {
    return source;
  }

  public String sha1() {
    return sha1;
  }

  byte[] sourceBytes() {
    return sourceBytes;
  }

  byte[] sha1Bytes() {
    return sha1Bytes;
  }
}
