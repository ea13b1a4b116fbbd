package io.tollgate.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.config.TenantsConfig;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.security.Principal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who a request is charged to. */
class TenantResolverTest {

  private static HttpServletRequest request(Map<String, String> headers, String user) {
    return (HttpServletRequest) Proxy.newProxyInstance(TenantResolverTest.class.getClassLoader(),
        new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
          case "getHeader" -> headers.entrySet().stream()
              .filter(e -> e.getKey().equalsIgnoreCase((String) args[0])).map(Map.Entry::getValue)
              .findFirst().orElse(null);
          case "getUserPrincipal" -> user == null ? null : (Principal) () -> user;
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void aHeaderTenantIsTheHeadersValueAsSent() {
    TenantResolver resolver = TenantResolver.header("X-Tenant-Id");

    assertThat(resolver.tenantOf(request(Map.of("x-tenant-id", "{acme}"), null))).contains("{acme}");
    assertThat(resolver.tenantOf(request(Map.of("X-Tenant-Id", "  "), null))).isEmpty();
    assertThat(resolver.tenantOf(request(Map.of(), null))).isEmpty();
  }

  @Test
  void anApiKeyTenantIsTheKeysHashWithOrWithoutBearer() {
    TenantResolver resolver = TenantResolver.apiKey("Authorization");
    String expected = "key:S-MbjOT6yX7Bw0ZtgS5lNRoh7DCP6AuK0fonv8ylE84"; // SHA-256 of sk-premium-1, base64url

    assertThat(TenantResolver.apiKeyTenant("sk-premium-1")).isEqualTo(expected);
    assertThat(resolver.tenantOf(request(Map.of("Authorization", "Bearer sk-premium-1"), null))).contains(expected);
    assertThat(resolver.tenantOf(request(Map.of("Authorization", "bearer  sk-premium-1 "), null))).contains(expected);
    assertThat(resolver.tenantOf(request(Map.of("Authorization", "sk-premium-1"), null))).contains(expected);
    assertThat(resolver.tenantOf(request(Map.of("Authorization", "Bearer"), null))).isEmpty();
    assertThat(resolver.tenantOf(request(Map.of("Authorization", "Bearer   "), null))).isEmpty();
    assertThat(resolver.tenantOf(request(Map.of(), null))).isEmpty();
  }

  @Test
  void thePrincipalTenantIsTheUsersName() {
    assertThat(TenantResolver.principal().tenantOf(request(Map.of(), "alice"))).contains("alice");
    assertThat(TenantResolver.principal().tenantOf(request(Map.of(), null))).isEmpty();
  }

  @Test
  void theConfigurationChoosesHeaderOrApiKey() {
    TenantsConfig byHeader = TenantsConfig.builder().header("X-Org").build();
    TenantsConfig byKey = TenantsConfig.builder().apiKeyHeader("api-key").build();

    assertThat(TenantResolver.from(byHeader).tenantOf(request(Map.of("X-Org", "initech"), null))).contains("initech");
    assertThat(TenantResolver.from(byKey).tenantOf(request(Map.of("api-key", "sk-1"), null)))
        .contains(TenantResolver.apiKeyTenant("sk-1"));
  }

  @Test
  void missingTenantReadsItsInitParamForm() {
    assertThat(MissingTenant.parse("reject")).isEqualTo(MissingTenant.reject());
    assertThat(MissingTenant.parse("default:anonymous").defaultTenant()).contains("anonymous");
    assertThat(MissingTenant.parse(" default:a:b ").defaultTenant()).contains("a:b");
    assertThatThrownBy(() -> MissingTenant.parse("default: "))
        .hasMessage("must be reject or default:<tenant id>, was default:");
  }
}
