package io.tollgate.router.internal;

import io.tollgate.llm.ProviderApi;
import io.tollgate.config.ProviderConfig;

/** Which APIs share a body format, so a request can move between them without translation. */
public final class ApiFamilies {

  private ApiFamilies() {}

  public static boolean compatible(ProviderConfig from, ProviderConfig to) {
    return from.api().sameFamily(to.api());
  }

  static boolean isAnthropic(ProviderConfig provider) {
    return provider.api() == ProviderApi.ANTHROPIC;
  }

  static boolean isAzure(ProviderConfig provider) {
    return provider.api() == ProviderApi.AZURE_OPENAI;
  }

  /** The API's name as the configuration writes it, for messages. */
  static String name(ProviderConfig provider) {
    return provider.api().configName();
  }
}
