package io.tollgate.agent;

import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import java.util.Map;

/** Configurations the agent's tests share: for a gate wired by hand, or a forked app's file. */
public final class HelperConfigs {

  private HelperConfigs() {}

  /** {@code yaml} read as the agent reads its file, with no environment variables. */
  public static TollgateConfig config(String yaml) {
    return TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml(yaml);
  }

  /**
   * The OpenAI provider {@code primary} at {@code baseUrl}, alone, with one limit given as its
   * YAML line ({@code "requests-per-minute: 1"}).
   */
  public static String primaryLimitedTo(String baseUrl, String limit) {
    return """
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                %s
        """.formatted(baseUrl, limit);
  }

  /**
   * The OpenAI provider {@code primary} at {@code primaryUrl}, without limits, falling back to the
   * OpenAI provider {@code backup} at {@code backupUrl}, whose key is {@code backup-key}.
   */
  public static String primaryFallingBackTo(String primaryUrl, String backupUrl) {
    return """
        tollgate:
          providers:
            primary:
              base-url: %s
              api: openai
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: backup-key
        """.formatted(primaryUrl, backupUrl);
  }
}
