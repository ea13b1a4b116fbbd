package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.limiter.Subject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code tenants.case-insensitive}, {@code known-only}, {@code max-tracked} and {@code hash-key}:
 * read from YAML and properties, defaulted, and refused with the key named (never the secret).
 */
class TenantKeysTest {

  private static final String TENANTS = """
      tollgate:
        tenants:
          header: X-Tenant-Id
          limits: { requests-per-minute: 60 }
      """;
  private static final String HASH_KEY = "0123456789abcdef-tenant-hash-key";

  private static TenantsConfig tenants(String more) {
    return Loaders.yaml(TENANTS + more).tenants().orElseThrow();
  }

  private static TenantsConfig tenants(String more, Map<String, String> environment) {
    return Loaders.yaml(TENANTS + more, environment).tenants().orElseThrow();
  }

  @Test
  void defaultsKeepIdsAsSentServeAnyTenantTrackAHundredThousandAndHashUnkeyed() {
    TenantsConfig tenants = tenants("");

    assertThat(tenants.caseInsensitive()).isFalse();
    assertThat(tenants.knownOnly()).isFalse();
    assertThat(tenants.maxTracked()).isEqualTo(100_000);
    assertThat(tenants.hashKey()).isEmpty();
    assertThat(tenants.normalize("ACME")).isEqualTo("ACME");
    assertThat(tenants.subject("tenant", "acme")).isEqualTo(Subject.of("tenant", "acme"));
  }

  @Test
  void readsEveryKeyFromYaml() {
    TenantsConfig tenants = tenants("""
            case-insensitive: true
            known-only: true
            max-tracked: 500
            hash-key: ${TOLLGATE_TENANT_HASH_KEY}
            overrides:
              Premium: { requests-per-minute: 600 }
        """, Map.of("TOLLGATE_TENANT_HASH_KEY", HASH_KEY));

    assertThat(tenants.caseInsensitive()).isTrue();
    assertThat(tenants.knownOnly()).isTrue();
    assertThat(tenants.maxTracked()).isEqualTo(500);
    assertThat(tenants.hashKey().orElseThrow().reveal()).isEqualTo(HASH_KEY);
  }

  @Test
  void readsEveryKeyFromProperties() {
    TenantsConfig tenants = Loaders.properties(Map.of(
        "tollgate.tenants.header", "X-Tenant-Id",
        "tollgate.tenants.case-insensitive", "true",
        "tollgate.tenants.known-only", "true",
        "tollgate.tenants.max-tracked", "7",
        "tollgate.tenants.hash-key", HASH_KEY,
        "tollgate.tenants.overrides.acme.requests-per-minute", "5")).tenants().orElseThrow();

    assertThat(tenants.caseInsensitive()).isTrue();
    assertThat(tenants.knownOnly()).isTrue();
    assertThat(tenants.maxTracked()).isEqualTo(7);
    assertThat(tenants.hashKey().orElseThrow().reveal()).isEqualTo(HASH_KEY);
  }

  @Test
  void theVariableOfAPlaceholderIsNotTakenForAMistypedOverride() {
    // TOLLGATE_TENANT_HASH_KEY overrides no key (that would be TOLLGATE_TENANTS_HASH_KEY), but it is read
    assertThat(tenants("    hash-key: ${TOLLGATE_TENANT_HASH_KEY}\n", Map.of("TOLLGATE_TENANT_HASH_KEY", HASH_KEY))
        .hashKey().orElseThrow().reveal()).isEqualTo(HASH_KEY);
    assertThat(tenants("", Map.of("TOLLGATE_TENANTS_HASH_KEY", HASH_KEY)).hashKey().orElseThrow().reveal())
        .isEqualTo(HASH_KEY);
    assertThatThrownBy(() -> tenants("", Map.of("TOLLGATE_TENANT_HASH_KEY", HASH_KEY)))
        .hasMessage("TOLLGATE_TENANT_HASH_KEY is set but matches no configuration key;"
            + " did you mean TOLLGATE_TENANTS_HASH_KEY?");
  }

  @Test
  void anEmptyHashKeyFromAnUnsetVariableLeavesTheHashUnkeyed() {
    TenantsConfig tenants = tenants("    hash-key: ${TOLLGATE_TENANT_HASH_KEY:}\n");

    assertThat(tenants.hashKey()).isEmpty();
    assertThat(tenants.subject("inbound", "acme")).isEqualTo(Subject.of("inbound", "acme"));
  }

  @Test
  void aShortHashKeyFailsStartUpNamingTheKeyButNotItsValue() {
    assertThatThrownBy(() -> tenants("    hash-key: ${TOLLGATE_TENANT_HASH_KEY}\n",
        Map.of("TOLLGATE_TENANT_HASH_KEY", "short-secret-15")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.tenants.hash-key must be at least 16 bytes (32 random bytes, such as"
            + " `openssl rand -base64 32`, are best), was 15 bytes")
        .hasMessageNotContaining("short-secret");
  }

  @Test
  void theHashKeyNeverPrints() {
    TenantsConfig tenants = tenants("    hash-key: " + HASH_KEY + "\n");

    assertThat(tenants.toString()).isEqualTo(
        "{header=X-Tenant-Id, limits={requests-per-minute=60}, hash-key=***}");
  }

  @Test
  void theHashKeyKeysEverySubjectOfATenant() {
    TenantsConfig keyed = tenants("    hash-key: " + HASH_KEY + "\n");

    assertThat(keyed.subject("tenant", "acme")).isNotEqualTo(Subject.of("tenant", "acme"));
    assertThat(keyed.subject("inbound", "acme")).isNotEqualTo(Subject.of("inbound", "acme"));
    assertThat(keyed.subject("inbound", "acme").idHash()).matches("[A-Za-z0-9_-]{20}");
  }

  @Test
  void caseInsensitiveFoldsLookupsOverridesAndHashes() {
    TenantsConfig tenants = tenants("""
            case-insensitive: true
            overrides:
              Premium: { requests-per-minute: 600 }
        """);

    assertThat(tenants.normalize("ACME")).isEqualTo("acme");
    assertThat(tenants.isKnown("PREMIUM")).isTrue();
    assertThat(tenants.isKnown("premium")).isTrue();
    assertThat(tenants.knownTenants()).containsExactly("premium");
    assertThat(tenants.limitsFor("pReMiUm").requestsPerMinute()).hasValue(600);
    assertThat(tenants.subject("tenant", "ACME")).isEqualTo(Subject.of("tenant", "acme"));
  }

  @Test
  void caseSensitiveByDefault() {
    TenantsConfig tenants = tenants("""
            overrides:
              Premium: { requests-per-minute: 600 }
        """);

    assertThat(tenants.isKnown("premium")).isFalse();
    assertThat(tenants.limitsFor("premium").requestsPerMinute()).hasValue(60);
    assertThat(tenants.subject("tenant", "ACME")).isNotEqualTo(Subject.of("tenant", "acme"));
  }

  @Test
  void twoOverridesThatFoldToOneTenantFail() {
    assertThatThrownBy(() -> tenants("""
            case-insensitive: true
            overrides:
              acme: { requests-per-minute: 6 }
              ACME: { requests-per-minute: 600 }
        """))
        .hasMessage("tollgate.tenants.overrides names acme and ACME, one tenant with case-insensitive: true;"
            + " keep one of them");
  }

  @Test
  void knownOnlyWithoutOverridesFails() {
    assertThatThrownBy(() -> tenants("    known-only: true\n"))
        .hasMessage("tollgate.tenants.known-only is true but overrides names no tenant,"
            + " so every request would be refused");
  }

  @Test
  void maxTrackedMustBePositive() {
    assertThatThrownBy(() -> tenants("    max-tracked: 0\n"))
        .hasMessage("tollgate.tenants.max-tracked must be > 0, was 0");
    assertThatThrownBy(() -> tenants("    max-tracked: lots\n"))
        .hasMessageStartingWith("tollgate.tenants.max-tracked ");
  }

  @Test
  void anOverrideNoRequestCouldNameFails() {
    assertThatThrownBy(() -> tenants("    overrides:\n      \"acme corp\": { requests-per-minute: 6 }\n"))
        .hasMessage("tollgate.tenants.overrides names a tenant id no request can carry (a tenant id is 1 to 128"
            + " printable ASCII characters, without spaces or control characters), was \"acme corp\"");
  }

  @Test
  void theIdRuleAcceptsPrintableAsciiUpTo128AndNothingElse() {
    assertThat(TenantIdRule.isValid("acme")).isTrue();
    assertThat(TenantIdRule.isValid("key:S-MbjOT6yX7Bw0ZtgS5lNRoh7DCP6AuK0fonv8ylE84")).isTrue();
    assertThat(TenantIdRule.isValid("ops@acme.com")).isTrue();
    assertThat(TenantIdRule.isValid("{acme}~!")).isTrue();
    assertThat(TenantIdRule.isValid("x".repeat(128))).isTrue();

    assertThat(TenantIdRule.isValid("x".repeat(129))).isFalse();
    assertThat(TenantIdRule.isValid("")).isFalse();
    assertThat(TenantIdRule.isValid(null)).isFalse();
    assertThat(TenantIdRule.isValid("acme corp")).isFalse();
    assertThat(TenantIdRule.isValid("acme\n")).isFalse();
    assertThat(TenantIdRule.isValid("acme\u0000")).isFalse();
    assertThat(TenantIdRule.isValid("acme\u007f")).isFalse();
    assertThat(TenantIdRule.isValid("caf\u00e9")).isFalse();
  }
}
