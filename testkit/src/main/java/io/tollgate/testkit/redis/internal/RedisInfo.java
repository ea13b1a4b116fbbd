package io.tollgate.testkit.redis.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the {@code field:value} lines of {@code INFO} and {@code CLUSTER INFO} replies. */
public final class RedisInfo {

  private RedisInfo() {}

  public static Map<String, String> parse(String reply) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : reply.split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith("#")) {
        fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
      }
    }
    return fields;
  }

  /** The value of {@code field}, or an empty string when the reply lacks it. */
  public static String field(String reply, String field) {
    return parse(reply).getOrDefault(field, "");
  }
}
