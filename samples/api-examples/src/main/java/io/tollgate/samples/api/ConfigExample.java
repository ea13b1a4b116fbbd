package io.tollgate.samples.api;

import io.tollgate.config.LimitsConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import java.util.Map;

/** Configuration read from a file or built from properties, and limits built in code. */
public final class ConfigExample {

  private ConfigExample() {}

  public static TollgateConfig fromFile() {
    TollgateConfig config = TollgateConfigLoader.create().load("classpath:tollgate.yaml");
    return config;
  }

  public static TollgateConfig fromProperties() {
    TollgateConfig config = TollgateConfigLoader.builder()
        .environment(Map.of("OPENAI_API_KEY", "sk-test"))
        .build()
        .fromProperties(Map.of("tollgate.mode", "shadow"));
    return config;
  }

  public static LimitsConfig limits() {
    LimitsConfig limits = LimitsConfig.builder().requestsPerMinute(500).tokensPerMinute(200_000).build();
    return limits;
  }
}
