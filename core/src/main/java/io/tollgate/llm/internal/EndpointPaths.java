package io.tollgate.llm.internal;

import io.tollgate.llm.LlmEndpoint;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/** What a request's path says: the endpoint, and Azure's deployment. */
final class EndpointPaths {

  private static final String DEPLOYMENTS = "/deployments/";

  private EndpointPaths() {}

  /** The path alone: no scheme, host, query or fragment. */
  static String pathOf(String pathOrUrl) {
    if (pathOrUrl == null) {
      return "";
    }
    String p = pathOrUrl;
    int scheme = p.indexOf("://");
    if (scheme >= 0) {
      int slash = p.indexOf('/', scheme + 3);
      p = slash < 0 ? "/" : p.substring(slash);
    }
    int cut = p.length();
    int query = p.indexOf('?');
    int fragment = p.indexOf('#');
    if (query >= 0) {
      cut = query;
    }
    if (fragment >= 0 && fragment < cut) {
      cut = fragment;
    }
    return p.substring(0, cut);
  }

  static LlmEndpoint endpoint(String pathOrUrl) {
    String p = pathOf(pathOrUrl).toLowerCase(Locale.ROOT);
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (p.endsWith("/chat/completions")) {
      return LlmEndpoint.CHAT_COMPLETIONS;
    }
    if (p.endsWith("/messages/count_tokens")) {
      return LlmEndpoint.COUNT_TOKENS;
    }
    if (p.endsWith("/messages") && !p.contains("/threads/")) {
      // OpenAI's Assistants API has .../threads/{id}/messages: a different thing.
      return LlmEndpoint.MESSAGES;
    }
    if (p.endsWith("/responses")) {
      return LlmEndpoint.RESPONSES;
    }
    if (p.endsWith("/completions")) {
      return LlmEndpoint.COMPLETIONS;
    }
    if (p.endsWith("/embeddings")) {
      return LlmEndpoint.EMBEDDINGS;
    }
    return LlmEndpoint.OTHER;
  }

  /** Azure's {@code /openai/deployments/{deployment}/...}, percent-decoded. */
  static Optional<String> azureDeployment(String pathOrUrl) {
    String p = pathOf(pathOrUrl);
    int at = p.indexOf(DEPLOYMENTS);
    if (at < 0) {
      return Optional.empty();
    }
    int start = at + DEPLOYMENTS.length();
    int end = p.indexOf('/', start);
    String raw = end < 0 ? p.substring(start) : p.substring(start, end);
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException malformedEscape) {
      return Optional.of(raw);
    }
  }
}
