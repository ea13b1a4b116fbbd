package io.tollgate.demo;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which of the app's clients the agent instruments, from its start-up line ({@code [tollgate] on:
 * mode enforce, providers [...], limiter in-memory, instrumented [okhttp]}): the truth of the agent
 * that runs, whatever this driver was written against.
 */
final class Instrumented {

  private static final Pattern MODULES = Pattern.compile(".*instrumented \\[([^\\]]*)\\].*");

  private Instrumented() {}

  /** The agent's instrumentation names, or empty when {@code line} is not its start-up line. */
  static Optional<Set<String>> modules(String line) {
    if (!line.startsWith("[tollgate] on:")) {
      return Optional.empty();
    }
    Matcher m = MODULES.matcher(line);
    Set<String> names = new LinkedHashSet<>();
    if (m.matches()) {
      for (String name : m.group(1).split(",")) {
        if (!name.isBlank()) {
          names.add(name.strip());
        }
      }
    }
    return Optional.of(names);
  }

  /**
   * True when one of {@code modules} covers the app's client {@code client} (okhttp, jdk, apache).
   * Names are matched loosely ({@code jdk-httpclient}, {@code java-http-client}, {@code
   * apache-httpclient-5}, {@code httpclient5}): the agent names its instrumentations itself.
   */
  static boolean covers(Set<String> modules, String client) {
    for (String module : modules) {
      boolean matches = switch (client) {
        case "okhttp" -> module.contains("okhttp");
        case "jdk" -> module.contains("jdk") || module.contains("java");
        case "apache" -> module.contains("apache") || module.matches(".*(httpclient|hc)[45].*");
        default -> false;
      };
      if (matches) {
        return true;
      }
    }
    return false;
  }
}
