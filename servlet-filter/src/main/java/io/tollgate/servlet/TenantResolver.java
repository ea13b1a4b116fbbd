package io.tollgate.servlet;

import io.tollgate.config.TenantsConfig;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Who a request is charged to. The filter refuses an id that breaks {@link
 * io.tollgate.config.TenantIdRule} (400), folds it to lower case with {@code
 * tollgate.tenants.case-insensitive}, refuses one not listed under {@code overrides} with {@code
 * known-only} (403), then looks it up in {@code tollgate.tenants.overrides}, binds it to the
 * request's thread ({@link io.tollgate.gate.Tenants}) and hashes it before it reaches Redis. A
 * resolver may return any string: the filter, not the resolver, enforces the rule.
 *
 * <pre>{@code
 * TenantResolver byHeader = TenantResolver.header("X-Tenant-Id");  // the header's value
 * TenantResolver byKey = TenantResolver.apiKey("Authorization");   // a hash of the API key ("Bearer " dropped)
 * TenantResolver byUser = TenantResolver.principal();              // the authenticated user's name
 * }</pre>
 */
@FunctionalInterface
public interface TenantResolver {

  /** What an API-key tenant id starts with: {@code key:} and the key's SHA-256, never the key. */
  String API_KEY_PREFIX = "key:";

  /** The tenant of {@code request}; empty when the request names none. */
  Optional<String> tenantOf(HttpServletRequest request);

  /** The value of {@code header}; a blank or absent one is no tenant. */
  static TenantResolver header(String header) {
    Objects.requireNonNull(header, "header");
    return request -> nonBlank(request.getHeader(header));
  }

  /**
   * A hash of the API key in {@code header} ({@link #apiKeyTenant(String)}); a {@code Bearer }
   * prefix is dropped first, so {@code Authorization: Bearer sk-1} and {@code api-key: sk-1} are
   * the same tenant. The key itself is never kept.
   */
  static TenantResolver apiKey(String header) {
    Objects.requireNonNull(header, "header");
    return request -> nonBlank(request.getHeader(header)).map(TenantResolver::withoutScheme)
        .flatMap(TenantResolver::nonBlank).map(TenantResolver::apiKeyTenant);
  }

  /** The name of the request's authenticated principal; none when the request is anonymous. */
  static TenantResolver principal() {
    return PrincipalTenant.INSTANCE;
  }

  /** What {@code tollgate.tenants} says: its {@code header}, or its {@code api-key-header}. */
  static TenantResolver from(TenantsConfig tenants) {
    return tenants.header().map(TenantResolver::header)
        .orElseGet(() -> apiKey(tenants.apiKeyHeader().orElseThrow()));
  }

  /**
   * The tenant id of an API key: {@code key:} followed by the base64url SHA-256 of the key (43
   * characters). Use it to name an API-key tenant in {@code tollgate.tenants.overrides}. It does not
   * depend on {@code tollgate.tenants.hash-key}, so overrides survive a change of key; the hash of
   * this id in Redis keys, spans and logs is keyed like every tenant's.
   */
  static String apiKeyTenant(String apiKey) {
    Objects.requireNonNull(apiKey, "apiKey");
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(apiKey.getBytes(StandardCharsets.UTF_8));
      return API_KEY_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  private static String withoutScheme(String credentials) {
    String trimmed = credentials.trim();
    String lower = trimmed.toLowerCase(Locale.ROOT);
    if (lower.equals("bearer")) {
      return ""; // the scheme without a key
    }
    return lower.startsWith("bearer ") ? trimmed.substring(7).trim() : trimmed;
  }

  private static Optional<String> nonBlank(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }
}
