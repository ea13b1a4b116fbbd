package io.tollgate.router.internal;

import io.tollgate.llm.Headers;
import io.tollgate.config.ProviderConfig;
import io.tollgate.config.Secret;
import io.tollgate.router.RequestRewriter;
import java.util.Locale;
import java.util.Set;

/** Which headers a request must lose before it goes to another provider, and the target's own credential. */
final class Credentials {

  /**
   * Dropped from every rewritten request, whatever its API: every header that carries a credential
   * or identifies the app's account (OpenAI rejects a key whose organization differs from
   * {@code openai-organization}), and the framing headers the client recomputes for the new URL
   * and body.
   */
  static final Set<String> DROPPED = Set.of(
      "authorization", "proxy-authorization", "api-key", "x-api-key", "ocp-apim-subscription-key",
      "cookie", "openai-organization", "openai-project",
      "host", "content-length", "transfer-encoding");

  private Credentials() {}

  /** {@code original} without {@link #DROPPED}, then {@code to}'s credential in its API's style. */
  static Headers forTarget(Headers original, ProviderConfig to, Secret key) {
    Headers.Builder headers = Headers.builder();
    boolean hasAnthropicVersion = false;
    for (Headers.Field field : original.fields()) {
      String name = field.name().toLowerCase(Locale.ROOT);
      if (!DROPPED.contains(name)) {
        headers.add(field.name(), field.value());
        hasAnthropicVersion |= name.equals("anthropic-version");
      }
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
