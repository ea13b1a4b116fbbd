package io.tollgate.router.internal;

import io.tollgate.config.ProviderConfig;
import io.tollgate.config.Secret;
import io.tollgate.llm.Headers;
import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.router.RequestRewriter;
import java.util.Locale;

/** The headers a request keeps when it goes to another provider, and the target's own credential. */
final class Credentials {

  private Credentials() {}

  /**
   * What of {@code original} may leave its origin ({@link CrossOriginHeaders}: never a credential,
   * nor the framing the client recomputes for the new URL and body), then {@code to}'s credential
   * in its API's style.
   */
  static Headers forTarget(Headers original, ProviderConfig to, Secret key, CrossOriginHeaders leaving) {
    Headers.Builder headers = Headers.builder();
    boolean hasAnthropicVersion = false;
    for (Headers.Field field : leaving.leaving(original).fields()) {
      headers.add(field.name(), field.value());
      hasAnthropicVersion |= field.name().toLowerCase(Locale.ROOT).equals("anthropic-version");
    }
    switch (to.api()) {
      case OPENAI -> headers.add("Authorization", "Bearer " + key.reveal());
      case AZURE_OPENAI -> headers.add("api-key", key.reveal());
      case ANTHROPIC -> {
        headers.add("x-api-key", key.reveal());
        if (!hasAnthropicVersion) {
          headers.add("anthropic-version", RequestRewriter.DEFAULT_ANTHROPIC_VERSION);
        }
      }
    }
    return headers.build();
  }
}
