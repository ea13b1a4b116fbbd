package io.tollgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.ProviderConfig;
import io.tollgate.config.TollgateConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnusableFallbacksTest {

  private static ProviderConfig provider(String name, int port, String apiKey, String... fallbacks) {
    return ProviderConfig.builder(name).baseUrl("http://127.0.0.1:" + port).apiKey(apiKey)
        .fallbacks(List.of(fallbacks)).build();
  }

  @Test
  void aFallbackWithoutAKeyIsNamedOnceWithTheKeyToSet() {
    TollgateConfig config = TollgateConfig.builder()
        .provider(provider("primary", 9001, "", "keyless", "keyed"))
        .provider(provider("other", 9002, "", "keyless"))
        .provider(provider("keyless", 9003, ""))
        .provider(provider("keyed", 9004, "sk-keyed"))
        .build();

    assertThat(UnusableFallbacks.warnings(config)).containsExactly("provider keyless is a fallback but has"
        + " no api-key, so no call is ever rerouted to it (the app's credential is never sent to"
        + " another host); set tollgate.providers.keyless.api-key");
  }

  @Test
  void providersThatAreNoOnesFallbackNeedNoKey() {
    TollgateConfig config = TollgateConfig.builder()
        .provider(provider("primary", 9001, "", "keyed"))
        .provider(provider("keyed", 9004, "sk-keyed"))
        .build();

    assertThat(UnusableFallbacks.warnings(config)).isEmpty();
  }
}
