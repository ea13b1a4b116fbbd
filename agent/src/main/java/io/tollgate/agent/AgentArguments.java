package io.tollgate.agent;

import java.util.Locale;
import java.util.Optional;

/**
 * The text after {@code tollgate-agent.jar=}: comma-separated {@code name=value} pairs.
 * {@code config=/path/tollgate.yaml} names the configuration ({@code classpath:} works too) and
 * {@code strict=true} aborts start-up on a bad configuration even when the file cannot say so
 * itself. A bare value without {@code =} is taken as the configuration's location.
 */
record AgentArguments(Optional<String> config, boolean strict) {

  static final AgentArguments NONE = new AgentArguments(Optional.empty(), false);

  /**
   * @throws IllegalArgumentException naming the argument at fault
   */
  static AgentArguments parse(String text) {
    if (text == null || text.isBlank()) {
      return NONE;
    }
    String config = null;
    boolean strict = false;
    for (String part : text.split(",")) {
      String item = part.trim();
      if (item.isEmpty()) {
        continue;
      }
      int equals = item.indexOf('=');
      if (equals < 0) {
        config = item;
        continue;
      }
      String name = item.substring(0, equals).trim().toLowerCase(Locale.ROOT);
      String value = item.substring(equals + 1).trim();
      switch (name) {
        case "config" -> config = value;
        case "strict" -> {
          if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException(
                "agent argument strict must be true or false, was " + value);
          }
          strict = value.equals("true");
        }
        default -> throw new IllegalArgumentException(
            "agent argument " + name + " is unknown; known: config, strict");
      }
    }
    if (config != null && config.isEmpty()) {
      throw new IllegalArgumentException("agent argument config is empty");
    }
    return new AgentArguments(Optional.ofNullable(config), strict);
  }
}
