package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.Subject;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * {@code tenants.user-header} and {@code tenants.user-limits} (issue 31): read from YAML, properties
 * and the environment, refused with the key named, and the user's subject nested in its tenant.
 */
class UserKeysTest {

  private static final String TENANTS = """
      tollgate:
        tenants:
          header: X-Tenant-Id
          limits: { requests-per-day: 50 }
      """;
  private static final String USERS = """
          user-header: X-User-Id
          user-limits:
            requests-per-day: 20
            tokens-per-day: 5000
            algorithm: sliding-window
      """;
  private static final String HASH_KEY = "0123456789abcdef-tenant-hash-key";

  private static TenantsConfig tenants(String more) {
    return Loaders.yaml(TENANTS + more).tenants().orElseThrow();
  }

  @Test
  void usersAreNotLimitedByDefault() {
    TenantsConfig tenants = tenants("");

    assertThat(tenants.userHeader()).isEmpty();
    assertThat(tenants.userLimits().isEmpty()).isTrue();
  }

  @Test
  void readsBothKeysFromYaml() {
    TenantsConfig tenants = tenants(USERS);

    assertThat(tenants.userHeader()).contains("X-User-Id");
    assertThat(tenants.userLimits().requestsPerDay()).hasValue(20);
    assertThat(tenants.userLimits().tokensPerDay()).hasValue(5000);
    assertThat(tenants.userLimits().algorithm()).isEqualTo(Algorithm.SLIDING_WINDOW);
    assertThat(tenants.limits().requestsPerDay()).hasValue(50);
    assertThat(tenants.toString()).isEqualTo("{header=X-Tenant-Id, limits={requests-per-day=50},"
        + " user-header=X-User-Id, user-limits={requests-per-day=20, tokens-per-day=5000,"
        + " algorithm=sliding-window}}");
  }

  @Test
  void propertiesGiveTheSameConfiguration() {
    TollgateConfig fromProperties = Loaders.properties(Map.of(
        "tollgate.tenants.header", "X-Tenant-Id",
        "tollgate.tenants.limits.requests-per-day", "50",
        "tollgate.tenants.user-header", "X-User-Id",
        "tollgate.tenants.user-limits.requests-per-day", "20",
        "tollgate.tenants.user-limits.tokens-per-day", "5000",
        "tollgate.tenants.user-limits.algorithm", "sliding-window"));

    assertThat(fromProperties).isEqualTo(Loaders.yaml(TENANTS + USERS));
  }

  @Test
  void theEnvironmentOverridesAUsersLimit() {
    TenantsConfig tenants = Loaders.yaml(TENANTS + USERS,
        Map.of("TOLLGATE_TENANTS_USER_LIMITS_REQUESTS_PER_DAY", "7")).tenants().orElseThrow();

    assertThat(tenants.userLimits().requestsPerDay()).hasValue(7);
  }

  @Test
  void userLimitsWithoutAUserHeaderFailNamingTheMissingKey() {
    assertThatThrownBy(() -> tenants("    user-limits: { requests-per-day: 20 }\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.tenants.user-header is required when user-limits is set: it says who the user is");
  }

  @Test
  void aUserHeaderWithoutUserLimitsFailsNamingTheMissingKey() {
    assertThatThrownBy(() -> tenants("    user-header: X-User-Id\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.tenants.user-limits is required when user-header is set:"
            + " it says what each user may spend");
  }

  @Test
  void wrongValuesFailNamingTheirKey() {
    assertThatThrownBy(() -> tenants("    user-header: X User\n    user-limits: { requests-per-day: 20 }\n"))
        .hasMessage("tollgate.tenants.user-header must be an HTTP header name, was X User");
    assertThatThrownBy(() -> tenants("    user-header: x-tenant-id\n    user-limits: { requests-per-day: 20 }\n"))
        .hasMessage("tollgate.tenants.user-header must be another header than the tenant's, was x-tenant-id");
    assertThatThrownBy(() -> tenants("    user-header: X-User-Id\n    user-limits: { requests-per-day: 0 }\n"))
        .hasMessage("tollgate.tenants.user-limits.requests-per-day must be > 0, was 0");
    assertThatThrownBy(() -> tenants("    user-header: X-User-Id\n    user-limits: { request-per-day: 5 }\n"))
        .hasMessage("tollgate.tenants.user-limits.request-per-day is not a known key; did you mean requests-per-day?");
  }

  @Test
  void aUsersSubjectIsNestedInItsTenantAndHashed() {
    TenantsConfig tenants = tenants(USERS);

    Subject bobOfAcme = tenants.userSubject("user", "acme", "bob");
    assertThat(bobOfAcme).isEqualTo(Subject.of("user", "4:acme:bob"));
    assertThat(bobOfAcme).isNotEqualTo(tenants.userSubject("user", "globex", "bob"));
    assertThat(bobOfAcme).isNotEqualTo(tenants.userSubject("inbound-user", "acme", "bob"));
    // the tenant's length keeps every pair apart, whatever the ids hold
    assertThat(tenants.userSubject("user", "a:b", "c")).isNotEqualTo(tenants.userSubject("user", "a", "b:c"));
    assertThat(bobOfAcme.toString()).doesNotContain("acme").doesNotContain("bob");
  }

  @Test
  void caseInsensitiveFoldsTheUserToo() {
    TenantsConfig tenants = tenants("    case-insensitive: true\n" + USERS);

    assertThat(tenants.userSubject("user", "ACME", "Bob")).isEqualTo(tenants.userSubject("user", "acme", "bob"));
  }

  @Test
  void theHashKeyKeysAUsersSubject() throws Exception {
    TenantsConfig tenants = tenants("    hash-key: " + HASH_KEY + "\n" + USERS);

    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(HASH_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    String hash = Base64.getUrlEncoder().withoutPadding().encodeToString(
        Arrays.copyOf(mac.doFinal("user\u00004:acme:bob".getBytes(StandardCharsets.UTF_8)), 15));

    assertThat(tenants.userSubject("user", "acme", "bob").idHash()).isEqualTo(hash);
  }
}
