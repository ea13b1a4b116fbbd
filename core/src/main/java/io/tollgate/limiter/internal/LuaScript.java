package io.tollgate.limiter.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A script from {@code lua/}, read from the classpath once, with the SHA-1 that EVALSHA names. */
public final class LuaScript {

  private static final String RESOURCE_DIRECTORY = "/io/tollgate/lua/";

  private final String name;
  private final String source;
  private final String sha1;

  private LuaScript(String name, String source) {
    this.name = name;
    this.source = source;
    this.sha1 = sha1(source);
  }

  /** Loads {@code lua/<name>.lua} as packaged in the core jar. */
  public static LuaScript load(String name) {
    String path = RESOURCE_DIRECTORY + name + ".lua";
    try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("script " + path + " is missing from the classpath");
      }
      return new LuaScript(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read script " + path, e);
    }
  }

  private static String sha1(String source) {
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
}
