package io.tollgate.gate;

import io.tollgate.config.TenantsConfig;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a front end takes a request's tenant from: what a refusal of a request without a tenant,
 * or with an invalid one, tells the client to fix ({@link Gate#admitInbound}).
 */
public final class TenantSource {

  /** How the tenant is named. */
  public enum Kind {
    /** A plain header ({@code tenants.header}). */
    HEADER,
    /** A hash of the API key in a header ({@code tenants.api-key-header}). */
    API_KEY,
    /** The authenticated user's name. */
    PRINCIPAL,
    /** The app's own resolver: nothing more is known. */
    CUSTOM
  }

  private static final TenantSource PRINCIPAL = new TenantSource(Kind.PRINCIPAL, null);
  private static final TenantSource CUSTOM = new TenantSource(Kind.CUSTOM, null);

  private final Kind kind;
  private final String header;

  private TenantSource(Kind kind, String header) {
    this.kind = kind;
    this.header = header;
  }

  /** The header or API-key header {@code tenants} names. */
  public static TenantSource of(TenantsConfig tenants) {
    Optional<String> header = tenants.header();
    return header.isPresent() ? header(header.get()) : apiKey(tenants.apiKeyHeader().orElseThrow());
  }

  public static TenantSource header(String name) {
    return new TenantSource(Kind.HEADER, Objects.requireNonNull(name, "name"));
  }

  public static TenantSource apiKey(String headerName) {
    return new TenantSource(Kind.API_KEY, Objects.requireNonNull(headerName, "headerName"));
  }

  public static TenantSource principal() {
    return PRINCIPAL;
  }

  public static TenantSource custom() {
    return CUSTOM;
  }

  public Kind kind() {
    return kind;
  }

  /** The header of {@link Kind#HEADER} and {@link Kind#API_KEY}; empty otherwise. */
  public Optional<String> header() {
    return Optional.ofNullable(header);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TenantSource other && kind == other.kind && Objects.equals(header, other.header);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, header);
  }

  @Override
  public String toString() {
    return header == null ? kind.toString() : kind + " " + header;
  }
}
