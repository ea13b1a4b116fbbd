package io.tollgate.gate;

import io.tollgate.config.ProviderConfig;
import io.tollgate.config.TollgateConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * Fallbacks that can never take a call: a provider with no {@code api-key} of its own. The rewrite
 * refuses them (the app's credential never goes to another host), so without this warning a
 * configuration that forgot a key would silently never reroute.
 */
final class UnusableFallbacks {

  private UnusableFallbacks() {}

  /** One line per such fallback, naming the key to set; empty when every fallback has a key. */
  static List<String> warnings(TollgateConfig config) {
    List<String> warnings = new ArrayList<>();
    config.providers().values().stream()
        .flatMap(provider -> provider.fallbacks().stream())
        .distinct()
        .forEach(name -> {
          ProviderConfig fallback = config.providers().get(name);
          if (fallback != null && fallback.apiKey().isEmpty()) {
            warnings.add("provider " + name + " is a fallback but has no api-key, so no call is ever"
                + " rerouted to it (the app's credential is never sent to another host); set "
                + TollgateConfig.ROOT + ".providers." + name + ".api-key");
          }
        });
    return warnings;
  }
}
