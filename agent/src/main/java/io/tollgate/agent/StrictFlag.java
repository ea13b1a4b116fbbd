package io.tollgate.agent;

import io.tollgate.config.TollgateConfigLoader;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Whether a configuration that failed validation asked for {@code strict: true}. The validated
 * configuration cannot tell (it does not exist), so the flag is read leniently from the raw
 * document, from {@code TOLLGATE_STRICT}, or from the agent argument {@code strict=true}.
 */
final class StrictFlag {

  private StrictFlag() {}

  static boolean of(AgentArguments arguments, String location, Map<String, String> environment) {
    if (arguments.strict()) {
      return true;
    }
    String variable = environment.get("TOLLGATE_STRICT");
    if (variable != null) {
      return variable.trim().equals("true");
    }
    return location != null && declaredIn(location);
  }

  /** {@code tollgate.strict} of the raw YAML at {@code location}; false when it cannot be read. */
  static boolean declaredIn(String location) {
    try {
      String yaml = read(location);
      if (yaml == null || !yaml.contains("strict")) {
        return false; // without parsing: premain stays free of the YAML parser in the usual case
      }
      Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
      return root instanceof Map<?, ?> map
          && map.get("tollgate") instanceof Map<?, ?> tollgate
          && Boolean.TRUE.equals(tollgate.get("strict"));
    } catch (Exception | LinkageError e) {
      return false;
    }
  }

  private static String read(String location) throws Exception {
    if (location.startsWith(TollgateConfigLoader.CLASSPATH_PREFIX)) {
      String name = location.substring(TollgateConfigLoader.CLASSPATH_PREFIX.length());
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      try (InputStream in = (loader != null ? loader : ClassLoader.getSystemClassLoader())
          .getResourceAsStream(name.startsWith("/") ? name.substring(1) : name)) {
        return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    }
    Path file = Path.of(location);
    return Files.isReadable(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
  }
}
