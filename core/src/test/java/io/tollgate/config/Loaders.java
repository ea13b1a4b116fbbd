package io.tollgate.config;

import java.util.Map;

/** Loaders over a fixed environment: no test depends on the machine's variables. */
final class Loaders {

  static final String EXAMPLE = "classpath:io/tollgate/config/config-md-example.yaml";
  static final String OPENAI_KEY = "sk-openai-test-0123456789";
  static final String BACKUP_KEY = "sk-backup-test-9876543210";
  static final Map<String, String> EXAMPLE_ENV =
      Map.of("OPENAI_API_KEY", OPENAI_KEY, "BACKUP_API_KEY", BACKUP_KEY);

  private Loaders() {}

  static TollgateConfigLoader with(Map<String, String> environment) {
    return TollgateConfigLoader.builder().environment(environment).build();
  }

  static TollgateConfig yaml(String yaml) {
    return with(Map.of()).fromYaml(yaml);
  }

  static TollgateConfig yaml(String yaml, Map<String, String> environment) {
    return with(environment).fromYaml(yaml);
  }

  static TollgateConfig properties(Map<String, String> properties) {
    return with(Map.of()).fromProperties(properties);
  }

  static TollgateConfig example() {
    return with(EXAMPLE_ENV).load(EXAMPLE);
  }
}
