package io.tollgate.servlet;

import io.tollgate.config.TenantIdRule;
import java.util.Objects;
import java.util.Optional;

/**
 * What the filter does with a request that names no tenant (init-param {@code missing-tenant}):
 * {@code reject} it (the default: 400 when the tenant comes from a plain header, 401 when it comes
 * from an API key or the principal, with a JSON error body), or charge it to a {@code default:<id>}
 * tenant, which gets that tenant's limits and overrides like any other.
 */
public final class MissingTenant {

  private static final String DEFAULT_PREFIX = "default:";
  private static final MissingTenant REJECT = new MissingTenant(null);

  private final String defaultTenant;

  private MissingTenant(String defaultTenant) {
    this.defaultTenant = defaultTenant;
  }

  /** Refuse the request: it cannot be charged to anyone. */
  public static MissingTenant reject() {
    return REJECT;
  }

  /** Charge the request to {@code tenant}, an id that keeps {@link TenantIdRule}. */
  public static MissingTenant defaultTenant(String tenant) {
    Objects.requireNonNull(tenant, "tenant");
    if (tenant.isBlank()) {
      throw new IllegalArgumentException("the default tenant must not be blank");
    }
    if (!TenantIdRule.isValid(tenant)) {
      throw new IllegalArgumentException("the default tenant must be " + TenantIdRule.DESCRIPTION);
    }
    return new MissingTenant(tenant);
  }

  /**
   * Reads the init-param form: {@code reject} or {@code default:<id>}.
   *
   * @throws IllegalArgumentException naming the accepted forms
   */
  public static MissingTenant parse(String value) {
    String text = value == null ? "" : value.trim();
    if (text.equals("reject")) {
      return REJECT;
    }
    if (text.startsWith(DEFAULT_PREFIX) && !text.substring(DEFAULT_PREFIX.length()).isBlank()) {
      String tenant = text.substring(DEFAULT_PREFIX.length());
      if (!TenantIdRule.isValid(tenant)) {
        throw new IllegalArgumentException("must be default:<tenant id> with an id of "
            + TenantIdRule.DESCRIPTION + ", was " + text);
      }
      return defaultTenant(tenant);
    }
    throw new IllegalArgumentException("must be reject or default:<tenant id>, was "
        + (text.isEmpty() ? "\"\"" : text));
  }

  /** The tenant to charge instead; empty when the request is rejected. */
  public Optional<String> defaultTenant() {
    return Optional.ofNullable(defaultTenant);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MissingTenant other && Objects.equals(defaultTenant, other.defaultTenant);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(defaultTenant);
  }

  @Override
  public String toString() {
    return defaultTenant == null ? "reject" : DEFAULT_PREFIX + defaultTenant;
  }
}
