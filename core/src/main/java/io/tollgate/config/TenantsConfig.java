package io.tollgate.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code tollgate.tenants} section: who is charged for a call and how much each may spend.
 * The tenant is the value of {@link #header()}, or a hash of the API key in {@link #apiKeyHeader()}
 * (exactly one of the two); every tenant gets {@link #limits()}, with {@link #overrides()} replacing
 * some of them for named tenants ({@link #limitsFor(String)}).
 */
public final class TenantsConfig {

  /** An HTTP header name (RFC 9110 token). */
  private static final Pattern HEADER = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  private final String header;
  private final String apiKeyHeader;
  private final LimitsConfig limits;
  private final Map<String, LimitsConfig> overrides;

  private TenantsConfig(Builder builder) {
    this.header = builder.header;
    this.apiKeyHeader = builder.apiKeyHeader;
    this.limits = builder.limits;
    this.overrides = Collections.unmodifiableMap(new LinkedHashMap<>(builder.overrides));
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code header}: the request header whose value is the tenant id; empty when {@link #apiKeyHeader()} is used. */
  public Optional<String> header() {
    return Optional.ofNullable(header);
  }

  /**
   * {@code api-key-header}: the request header holding the caller's API key (such as
   * {@code Authorization}); the tenant is a hash of that key, never the key itself. Empty when
   * {@link #header()} is used.
   */
  public Optional<String> apiKeyHeader() {
    return Optional.ofNullable(apiKeyHeader);
  }

  /** {@code limits}: what every tenant may spend; {@link LimitsConfig#none()} when not set. */
  public LimitsConfig limits() {
    return limits;
  }

  /**
   * {@code overrides}: tenant id → the limit keys that tenant gets instead of the base's, as
   * written; the keys it does not name keep the base's values. Use {@link #limitsFor(String)} for a
   * tenant's effective limits.
   */
  public Map<String, LimitsConfig> overrides() {
    return overrides;
  }

  /** The limits that apply to {@code tenant}: {@link #limits()} merged with its override, if any. */
  public LimitsConfig limitsFor(String tenant) {
    LimitsConfig override = overrides.get(tenant);
    return override == null ? limits : limits.mergedWith(override);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TenantsConfig other
        && Objects.equals(header, other.header)
        && Objects.equals(apiKeyHeader, other.apiKeyHeader)
        && limits.equals(other.limits)
        && overrides.equals(other.overrides);
  }

  @Override
  public int hashCode() {
    return Objects.hash(header, apiKeyHeader, limits, overrides);
  }

  @Override
  public String toString() {
    return "{" + (header != null ? "header=" + header : "api-key-header=" + apiKeyHeader)
        + (limits.isEmpty() ? "" : ", limits=" + limits)
        + (overrides.isEmpty() ? "" : ", overrides=" + overrides) + "}";
  }

  /** Collects the section; {@link #build()} requires exactly one of header and api-key-header. */
  public static final class Builder {
    private String header;
    private String apiKeyHeader;
    private LimitsConfig limits = LimitsConfig.none();
    private final Map<String, LimitsConfig> overrides = new LinkedHashMap<>();

    private Builder() {}

    public Builder header(String header) {
      this.header = headerName("header", header);
      return this;
    }

    public Builder apiKeyHeader(String apiKeyHeader) {
      this.apiKeyHeader = headerName("api-key-header", apiKeyHeader);
      return this;
    }

    private static String headerName(String key, String name) {
      if (name == null || !HEADER.matcher(name).matches()) {
        throw new ConfigException(key, "must be an HTTP header name, was " + ConfigException.shown(name));
      }
      return name;
    }

    public Builder limits(LimitsConfig limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Limit keys {@code tenant} gets instead of the base's. */
    public Builder override(String tenant, LimitsConfig limits) {
      if (tenant == null || tenant.isBlank()) {
        throw new ConfigException("overrides", "has an entry without a tenant id");
      }
      overrides.put(tenant, Objects.requireNonNull(limits, "limits"));
      return this;
    }

    public TenantsConfig build() {
      if (header != null && apiKeyHeader != null) {
        throw new ConfigException("header", "and api-key-header are both set; keep one of them");
      }
      if (header == null && apiKeyHeader == null) {
        throw new ConfigException("header",
            "or api-key-header is required when tenants is configured: it says who the tenant is");
      }
      return new TenantsConfig(this);
    }
  }
}
