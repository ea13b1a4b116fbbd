package io.tollgate.config;

import io.tollgate.limiter.BoundedSubjects;
import io.tollgate.limiter.Subject;
import io.tollgate.limiter.SubjectKey;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code tollgate.tenants} section: who is charged for a call and how much each may spend.
 * The tenant is the value of {@link #header()}, or a hash of the API key in {@link #apiKeyHeader()}
 * (exactly one of the two); every tenant gets {@link #limits()}, with {@link #overrides()} replacing
 * some of them for named tenants ({@link #limitsFor(String)}).
 *
 * <p>With {@link #userHeader()}, a request may also name a user inside its tenant, who gets
 * {@link #userLimits()} on top of the tenant's: both are charged together, so a user never spends
 * more than its tenant has.
 *
 * <p>It also says how an id becomes a subject: folded to lower case first when
 * {@link #caseInsensitive()}, hashed with {@link #hashKey()} when one is set ({@link #subject},
 * {@link #userSubject}).
 */
public final class TenantsConfig {

  public static final boolean DEFAULT_CASE_INSENSITIVE = false;
  public static final boolean DEFAULT_KNOWN_ONLY = false;
  public static final int DEFAULT_MAX_TRACKED = BoundedSubjects.DEFAULT_MAX_TRACKED;

  /** An HTTP header name (RFC 9110 token). */

  private final String header;
  private final String apiKeyHeader;
  private final LimitsConfig limits;
  private final Map<String, LimitsConfig> overrides;
  private final String userHeader;
  private final LimitsConfig userLimits;
  private final boolean caseInsensitive;
  private final boolean knownOnly;
  private final int maxTracked;
  private final Secret hashKey;
  /** Null without {@link #hashKey}. */
  private final SubjectKey subjectKey;
  /** The overrides by {@link #normalize normalized} id. */
  private final Map<String, LimitsConfig> byId;

  private TenantsConfig(Builder builder, Map<String, LimitsConfig> byId) {
    this.header = builder.header;
    this.apiKeyHeader = builder.apiKeyHeader;
    this.limits = builder.limits;
    this.overrides = Collections.unmodifiableMap(new LinkedHashMap<>(builder.overrides));
    this.userHeader = builder.userHeader;
    this.userLimits = builder.userLimits;
    this.caseInsensitive = builder.caseInsensitive;
    this.knownOnly = builder.knownOnly;
    this.maxTracked = builder.maxTracked;
    this.hashKey = builder.hashKey;
    this.subjectKey = hashKey == null ? null
        : SubjectKey.of(hashKey.reveal().getBytes(StandardCharsets.UTF_8));
    this.byId = Collections.unmodifiableMap(byId);
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

  /**
   * {@code user-header}: the request header whose value names a user inside the tenant; empty when
   * users are not limited. Set exactly when {@link #userLimits()} is.
   */
  public Optional<String> userHeader() {
    return Optional.ofNullable(userHeader);
  }

  /**
   * {@code user-limits}: what each user of a tenant may spend, charged together with the tenant's
   * own limits; {@link LimitsConfig#none()} when users are not limited.
   */
  public LimitsConfig userLimits() {
    return userLimits;
  }

  /**
   * {@code case-insensitive}: true folds every tenant id (and the ids of {@link #overrides()}) and
   * every user id to lower case ({@code Locale.ROOT}) before it is looked up or hashed, so {@code
   * ACME} is {@code acme}. Default false: ids are taken as sent.
   */
  public boolean caseInsensitive() {
    return caseInsensitive;
  }

  /**
   * {@code known-only}: true serves only the tenants {@link #overrides()} names; the servlet filter
   * refuses any other (403). Default false.
   */
  public boolean knownOnly() {
    return knownOnly;
  }

  /**
   * {@code max-tracked}: how many tenant ids one JVM charges on their own at a time, per direction
   * (inbound, outbound); beyond them, new ids share one overflow bucket with the base limits
   * ({@link BoundedSubjects}). Tenants named in {@link #overrides()} are always charged on their
   * own and not counted. Default {@value #DEFAULT_MAX_TRACKED}.
   */
  public int maxTracked() {
    return maxTracked;
  }

  /**
   * {@code hash-key}: the secret that keys the tenant hash in Redis keys, spans and logs
   * (HMAC-SHA256); empty when not set, and then the hash is a plain SHA-256 of the id, which anyone
   * can recompute for a guessed id.
   */
  public Optional<Secret> hashKey() {
    return Optional.ofNullable(hashKey);
  }

  /**
   * A tenant or user {@code id} as it is looked up and hashed: folded to lower case when {@link
   * #caseInsensitive()}.
   */
  public String normalize(String id) {
    return caseInsensitive ? id.toLowerCase(Locale.ROOT) : id;
  }

  /** The limits that apply to {@code tenant}: {@link #limits()} merged with its override, if any. */
  public LimitsConfig limitsFor(String tenant) {
    LimitsConfig override = byId.get(normalize(tenant));
    return override == null ? limits : limits.mergedWith(override);
  }

  /** True when {@link #overrides()} names {@code tenant} (folded when {@link #caseInsensitive()}). */
  public boolean isKnown(String tenant) {
    return byId.containsKey(normalize(tenant));
  }

  /** The ids {@link #overrides()} names, {@link #normalize normalized}. */
  public Set<String> knownTenants() {
    return byId.keySet();
  }

  /** The subject that charges {@code tenant} in {@code scope}: its normalized id, hashed with {@link #hashKey()} when set. */
  public Subject subject(String scope, String tenant) {
    return hashed(scope, normalize(tenant));
  }

  /**
   * The subject that charges {@code user} of {@code tenant} in {@code scope}: one id made of both,
   * so that {@code bob} of one tenant and {@code bob} of another are two subjects, hashed as
   * {@link #subject} hashes. The tenant's length leads, so that no two pairs make the same id
   * whatever characters an id bound by the app's own code holds.
   */
  public Subject userSubject(String scope, String tenant, String user) {
    String id = normalize(tenant);
    return hashed(scope, id.length() + ":" + id + ":" + normalize(user));
  }

  private Subject hashed(String scope, String id) {
    return subjectKey == null ? Subject.of(scope, id) : Subject.keyed(scope, id, subjectKey);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TenantsConfig other
        && Objects.equals(header, other.header)
        && Objects.equals(apiKeyHeader, other.apiKeyHeader)
        && limits.equals(other.limits)
        && overrides.equals(other.overrides)
        && Objects.equals(userHeader, other.userHeader)
        && userLimits.equals(other.userLimits)
        && caseInsensitive == other.caseInsensitive
        && knownOnly == other.knownOnly
        && maxTracked == other.maxTracked
        && Objects.equals(hashKey, other.hashKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(header, apiKeyHeader, limits, overrides, userHeader, userLimits, caseInsensitive,
        knownOnly, maxTracked, hashKey);
  }

  @Override
  public String toString() {
    return "{" + (header != null ? "header=" + header : "api-key-header=" + apiKeyHeader)
        + (limits.isEmpty() ? "" : ", limits=" + limits)
        + (overrides.isEmpty() ? "" : ", overrides=" + overrides)
        + (userHeader == null ? "" : ", user-header=" + userHeader + ", user-limits=" + userLimits)
        + (caseInsensitive ? ", case-insensitive=true" : "")
        + (knownOnly ? ", known-only=true" : "")
        + (maxTracked == DEFAULT_MAX_TRACKED ? "" : ", max-tracked=" + maxTracked)
        + (hashKey == null ? "" : ", hash-key=" + Secret.MASK) + "}";
  }

  /**
   * Collects the section; {@link #build()} requires exactly one of header and api-key-header, and
   * user-header and user-limits together or neither.
   */
  public static final class Builder {
    private String header;
    private String apiKeyHeader;
    private LimitsConfig limits = LimitsConfig.none();
    private final Map<String, LimitsConfig> overrides = new LinkedHashMap<>();
    private String userHeader;
    private LimitsConfig userLimits = LimitsConfig.none();
    private boolean caseInsensitive = DEFAULT_CASE_INSENSITIVE;
    private boolean knownOnly = DEFAULT_KNOWN_ONLY;
    private int maxTracked = DEFAULT_MAX_TRACKED;
    private Secret hashKey;

    private Builder() {}

    public Builder header(String header) {
      this.header = Values.headerName("header", header);
      return this;
    }

    public Builder apiKeyHeader(String apiKeyHeader) {
      this.apiKeyHeader = Values.headerName("api-key-header", apiKeyHeader);
      return this;
    }

    /** The header naming a user inside the tenant; requires {@link #userLimits}. */
    public Builder userHeader(String userHeader) {
      this.userHeader = Values.headerName("user-header", userHeader);
      return this;
    }

    /** What each user may spend, on top of its tenant's limits; requires {@link #userHeader}. */
    public Builder userLimits(LimitsConfig userLimits) {
      this.userLimits = Objects.requireNonNull(userLimits, "userLimits");
      return this;
    }

    public Builder limits(LimitsConfig limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Limit keys {@code tenant} gets instead of the base's; {@code tenant} must keep {@link TenantIdRule}. */
    public Builder override(String tenant, LimitsConfig limits) {
      if (tenant == null || tenant.isBlank()) {
        throw new ConfigException("overrides", "has an entry without a tenant id");
      }
      if (!TenantIdRule.isValid(tenant)) {
        throw new ConfigException("overrides", "names a tenant id no request can carry (a tenant id is "
            + TenantIdRule.DESCRIPTION + "), was " + shownId(tenant));
      }
      overrides.put(tenant, Objects.requireNonNull(limits, "limits"));
      return this;
    }

    public Builder caseInsensitive(boolean caseInsensitive) {
      this.caseInsensitive = caseInsensitive;
      return this;
    }

    public Builder knownOnly(boolean knownOnly) {
      this.knownOnly = knownOnly;
      return this;
    }

    public Builder maxTracked(int maxTracked) {
      if (maxTracked <= 0) {
        throw new ConfigException("max-tracked", "must be > 0, was " + maxTracked);
      }
      this.maxTracked = maxTracked;
      return this;
    }

    /**
     * The tenant hash key, at least {@value SubjectKey#MIN_BYTES} bytes of UTF-8; null or empty
     * (an unset {@code ${TOLLGATE_TENANT_HASH_KEY:}}) leaves the hash unkeyed. A message never
     * shows it.
     */
    public Builder hashKey(String hashKey) {
      if (hashKey == null || hashKey.isEmpty()) {
        this.hashKey = null;
        return this;
      }
      int bytes = hashKey.getBytes(StandardCharsets.UTF_8).length;
      if (bytes < SubjectKey.MIN_BYTES) {
        throw new ConfigException("hash-key", "must be at least " + SubjectKey.MIN_BYTES
            + " bytes (32 random bytes, such as `openssl rand -base64 32`, are best), was " + bytes
            + (bytes == 1 ? " byte" : " bytes"));
      }
      this.hashKey = Secret.of(hashKey);
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
      checkUsers();
      if (knownOnly && overrides.isEmpty()) {
        throw new ConfigException("known-only",
            "is true but overrides names no tenant, so every request would be refused");
      }
      Map<String, LimitsConfig> byId = new LinkedHashMap<>();
      Map<String, String> writtenAs = new LinkedHashMap<>();
      overrides.forEach((tenant, override) -> {
        String id = caseInsensitive ? tenant.toLowerCase(Locale.ROOT) : tenant;
        String earlier = writtenAs.putIfAbsent(id, tenant);
        if (earlier != null) {
          throw new ConfigException("overrides", "names " + earlier + " and " + tenant
              + ", one tenant with case-insensitive: true; keep one of them");
        }
        byId.put(id, override);
      });
      return new TenantsConfig(this, byId);
    }

    /** Users are named and limited together, by a header of their own. */
    private void checkUsers() {
      if (userHeader != null && userLimits.isEmpty()) {
        throw new ConfigException("user-limits",
            "is required when user-header is set: it says what each user may spend");
      }
      if (userHeader == null && !userLimits.isEmpty()) {
        throw new ConfigException("user-header",
            "is required when user-limits is set: it says who the user is");
      }
      if (userHeader != null && (userHeader.equalsIgnoreCase(header)
          || userHeader.equalsIgnoreCase(apiKeyHeader))) {
        throw new ConfigException("user-header",
            "must be another header than the tenant's, was " + userHeader);
      }
    }

    /** An override's id as a message shows it: printable, and cut when long. */
    private static String shownId(String tenant) {
      StringBuilder shown = new StringBuilder();
      for (int i = 0; i < tenant.length() && shown.length() < 40; i++) {
        char c = tenant.charAt(i);
        shown.append(c >= ' ' && c <= '~' ? c : '?');
      }
      return "\"" + shown + (tenant.length() > 40 ? "..." : "") + "\"";
    }
  }
}
