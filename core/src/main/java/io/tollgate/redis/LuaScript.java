package io.tollgate.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A script from {@code lua/}, read from the classpath once, with the SHA-1 that EVALSHA names.
 *
 * <p>A script {@linkplain #loadSteps made of steps} runs a batch of independent steps per call:
 * step i on {@code KEYS[i]} with {@code ARGV[i]}, its reply the list of the steps' replies. Each
 * {@link RedisScripts.Call} to it is one step (one key, one argument), and the port may send the
 * steps of many calls together.
 */
public final class LuaScript {

  private static final String RESOURCE_DIRECTORY = "/io/tollgate/lua/";

  private final String name;
  private final String source;
  private final String sha1;
  // Sent as bytes: the client would encode the strings again on every call.
  private final byte[] sourceBytes;
  private final byte[] sha1Bytes;

  private final boolean steps;

  private LuaScript(String name, String source, String sha1, boolean steps) {
    this.name = name;
    this.steps = steps;
    this.source = source;
    this.sha1 = sha1;
    this.sourceBytes = source.getBytes(StandardCharsets.UTF_8);
    this.sha1Bytes = sha1.getBytes(StandardCharsets.US_ASCII);
  }

  /** Loads {@code lua/<name>.lua} as packaged in the core jar, and hashes it. */
  public static LuaScript load(String name) {
    return load(name, false);
  }

  /** As {@link #load}, for a script made of steps (see the class). */
  public static LuaScript loadSteps(String name) {
    return load(name, true);
  }

  private static LuaScript load(String name, boolean steps) {
    String source = resource(RESOURCE_DIRECTORY + name + ".lua");
    return new LuaScript(name, source, sha1(source), steps);
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

  public String name() {
    return name;
  }

  public String source() {
    return source;
  }

  public String sha1() {
    return sha1;
  }

  /** True for a script made of steps (see the class). */
  public boolean steps() {
    return steps;
  }

  byte[] sourceBytes() {
    return sourceBytes;
  }

  byte[] sha1Bytes() {
    return sha1Bytes;
  }
}
