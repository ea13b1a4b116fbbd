package io.tollgate.servlet;

import io.tollgate.config.TenantIdRule;
import io.tollgate.limiter.Decision;
import io.tollgate.llm.Headers;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.RateLimitNotice;
import io.tollgate.llm.SyntheticResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What the filter answers on its own: a refusal, and the rate-limit headers of an admitted request. */
final class Answers {

  private Answers() {}

  /** The protocol's own 429 for a refused request (no retry-after when it can never fit). */
  static SyntheticResponse refusal(LlmProtocol protocol, Decision decision, long tokens) {
    return protocol.syntheticRateLimit(notice(decision, tokens));
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

  static void send(HttpServletResponse response, SyntheticResponse answer) throws IOException {
    response.setStatus(answer.status());
    for (Headers.Field field : answer.headers().fields()) {
      if (field.name().equalsIgnoreCase("content-type")) {
        response.setContentType(field.value());
      } else {
        response.addHeader(field.name(), field.value());
      }
    }
    byte[] body = answer.body();
    response.setContentLength(body.length);
    try (OutputStream out = response.getOutputStream()) {
      out.write(body);
    }
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

  /** A tenant that {@code tollgate.tenants.known-only} does not serve: 403, without the id. */
  static SyntheticResponse unknownTenant() {
    String message = "Unknown tenant: this endpoint serves only the tenants it is configured for. (Tollgate)";
    return SyntheticResponse.of(403, Headers.builder().add("content-type", "application/json")
        .add("x-tollgate", "unknown-tenant").build(), errorBody(message, "unknown_tenant"));
  }

  /** OpenAI's error shape; {@code message} and {@code code} are the filter's own text. */
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
