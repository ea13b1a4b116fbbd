package io.tollgate.llm;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a provider speaks: the {@code api} key of a provider in the configuration. */
public enum ProviderApi {
  OPENAI("openai"),
  AZURE_OPENAI("azure-openai"),
  ANTHROPIC("anthropic");

  private final String configName;

  ProviderApi(String configName) {
    this.configName = configName;
  }

  /** The value written in the configuration: {@code openai}, {@code azure-openai}, {@code anthropic}. */
  public String configName() {
    return configName;
  }

  /**
   * True when a request written for this API can be sent to {@code other} after a rewrite:
   * OpenAI and Azure OpenAI share one body format; Anthropic speaks only to Anthropic.
   */
  public boolean sameFamily(ProviderApi other) {
    return (this == ANTHROPIC) == (other == ANTHROPIC);
  }

  /** The protocol of this API, with the system clock. */
  public LlmProtocol protocol() {
    return LlmProtocol.of(this);
  }

  /**
   * The API a configuration value names, ignoring case and surrounding blanks.
   *
   * @throws IllegalArgumentException naming the bad value and the accepted ones
   */
  public static ProviderApi fromConfig(String value) {
    String wanted = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    for (ProviderApi api : values()) {
      if (api.configName.equals(wanted)) {
        return api;
      }
    }
    throw new IllegalArgumentException("api must be one of "
        + Arrays.stream(values()).map(ProviderApi::configName).collect(Collectors.joining(", "))
        + ", was " + value);
  }
}
