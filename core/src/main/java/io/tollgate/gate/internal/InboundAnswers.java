package io.tollgate.gate.internal;

import io.tollgate.config.TenantIdRule;
import io.tollgate.gate.TenantSource;
import io.tollgate.limiter.Decision;
import io.tollgate.llm.Headers;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.RateLimitNotice;
import io.tollgate.llm.SyntheticResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the gate answers an inbound request on its own: a refusal for its limits or its tenant, and
 * the rate-limit headers of an admitted request.
 */
final class InboundAnswers {

  private InboundAnswers() {}

  /** The protocol's own 429 for a refused request (no retry-after when it can never fit). */
  static SyntheticResponse refusal(LlmProtocol protocol, Decision decision, long tokens) {
    return refusal(protocol, decision, tokens, 0);
  }

  /** A refusal of a request that asked for {@code spend} micro-dollars too. */
  static SyntheticResponse refusal(LlmProtocol protocol, Decision decision, long tokens, long spend) {
    return refusal(protocol, decision, tokens, spend, false);
  }

  /**
   * As {@link #refusal(LlmProtocol, Decision, long, long)}; {@code forUser}: the user's limits
   * refused, not its tenant's, and the message says so.
   */
  static SyntheticResponse refusal(LlmProtocol protocol, Decision decision, long tokens, long spend,
      boolean forUser) {
    RateLimitNotice notice = RateLimitNotice.from(decision, tokens, spend, null);
    return protocol.syntheticRateLimit(forUser ? notice.forHolder("user") : notice);
  }

  /** Why the request was refused; a request that can never fit is described without figures. */
  static RateLimitNotice notice(Decision decision, long tokens) {
    return RateLimitNotice.from(decision, tokens, null);
  }

  /**
   * The rate-limit headers of an admitted request ({@code x-ratelimit-*} for OpenAI and Azure,
   * {@code anthropic-ratelimit-*} for Anthropic): the same fields, in the same format, as the
   * refusal would carry, taken from it so that the two can never disagree.
   */
  static List<Headers.Field> limitHeaders(LlmProtocol protocol, Decision decision, long tokens) {
    List<Headers.Field> fields = new ArrayList<>();
    for (Headers.Field field : refusal(protocol, decision, tokens).headers().fields()) {
      String name = field.name().toLowerCase(Locale.ROOT);
      if (name.startsWith("x-ratelimit-") || name.startsWith("anthropic-ratelimit-")) {
        fields.add(field);
      }
    }
    return List.copyOf(fields);
  }

  /** The header that tells a client, in advisory mode, that enforcing would have refused it. */
  static final String ADVISORY_HEADER = "Tollgate-Advisory";

  /**
   * What an advisory-mode client is shown of a request enforcing would refuse: the rate-limit
   * headers of the refusal, and {@code Tollgate-Advisory} naming the limit.
   */
  static List<Headers.Field> advisoryHeaders(LlmProtocol protocol, Decision decision, long tokens) {
    List<Headers.Field> fields = new ArrayList<>(limitHeaders(protocol, decision, tokens));
    fields.add(new Headers.Field(ADVISORY_HEADER, "would-refuse; retry-after="
        + Math.max(1, (decision.retryAfter().toMillis() + 999) / 1000)));
    return List.copyOf(fields);
  }

  /** A request that names no tenant, where {@code source} says it should have. */
  static SyntheticResponse missingTenant(TenantSource source) {
    return switch (source.kind()) {
      case PRINCIPAL -> missingTenant("an authenticated user", true, false);
      case CUSTOM -> missingTenant(null, false, false);
      case HEADER -> missingTenant("the " + source.header().orElseThrow() + " header", false, false);
      case API_KEY -> {
        String header = source.header().orElseThrow();
        yield missingTenant("an API key in the " + header + " header", true,
            header.equalsIgnoreCase("Authorization"));
      }
    };
  }

  /** A request whose tenant id, taken from {@code source}, breaks {@link TenantIdRule}. */
  static SyntheticResponse invalidTenant(TenantSource source) {
    return invalidTenant(switch (source.kind()) {
      case PRINCIPAL -> "the authenticated user's name";
      case HEADER -> "the " + source.header().orElseThrow() + " header";
      case API_KEY, CUSTOM -> "the tenant id";
    });
  }

  /**
   * A request that names no tenant: 400 when a plain header (or a custom resolver, {@code source}
   * null) should have named it, 401 when an API key or a signed-in user should have (with a Bearer
   * challenge for {@code Authorization}).
   */
  static SyntheticResponse missingTenant(String source, boolean credentials, boolean bearer) {
    String needs = source == null ? "this endpoint needs to know who is calling"
        : "this endpoint needs " + source + " to know who is calling";
    String message = (credentials ? "Missing credentials: " : "Missing tenant: ") + needs + ". (Tollgate)";
    Headers.Builder headers = Headers.builder().add("content-type", "application/json");
    if (bearer) {
      headers.add("www-authenticate", "Bearer");
    }
    headers.add("x-tollgate", "missing-tenant");
    return SyntheticResponse.of(credentials ? 401 : 400, headers.build(), errorBody(message, "missing_tenant"));
  }

  /**
   * A request whose tenant id breaks {@link TenantIdRule}: 400, naming where the id came from
   * ({@code source}, such as {@code the X-Tenant-Id header}) and never the id itself.
   */
  static SyntheticResponse invalidTenant(String source) {
    String message = "Invalid tenant: " + source + " must be " + TenantIdRule.DESCRIPTION + ". (Tollgate)";
    return SyntheticResponse.of(400, Headers.builder().add("content-type", "application/json")
        .add("x-tollgate", "invalid-tenant").build(), errorBody(message, "invalid_tenant"));
  }

  /**
   * A request whose user id, from {@code header} ({@code tenants.user-header}), breaks {@link
   * TenantIdRule}: 400, naming the header and never the id.
   */
  static SyntheticResponse invalidUser(String header) {
    String message = "Invalid user: the " + header + " header must be " + TenantIdRule.DESCRIPTION
        + ". (Tollgate)";
    return SyntheticResponse.of(400, Headers.builder().add("content-type", "application/json")
        .add("x-tollgate", "invalid-user").build(), errorBody(message, "invalid_user"));
  }

  /** A tenant that {@code tollgate.tenants.known-only} does not serve: 403, without the id. */
  static SyntheticResponse unknownTenant() {
    String message = "Unknown tenant: this endpoint serves only the tenants it is configured for. (Tollgate)";
    return SyntheticResponse.of(403, Headers.builder().add("content-type", "application/json")
        .add("x-tollgate", "unknown-tenant").build(), errorBody(message, "unknown_tenant"));
  }

  /** OpenAI's error shape; {@code message} and {@code code} are Tollgate's own text. */
  private static byte[] errorBody(String message, String code) {
    String json = "{\"error\":{\"message\":" + quoted(message) + ",\"type\":\"invalid_request_error\","
        + "\"param\":null,\"code\":" + quoted(code) + "}}";
    return json.getBytes(StandardCharsets.UTF_8);
  }

  private static String quoted(String text) {
    StringBuilder s = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        s.append('\\').append(c);
      } else if (c < 0x20) {
        s.append(String.format("\\u%04x", (int) c));
      } else {
        s.append(c);
      }
    }
    return s.append('"').toString();
  }
}
