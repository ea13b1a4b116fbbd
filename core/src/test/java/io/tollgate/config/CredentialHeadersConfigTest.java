package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code tollgate.credential-headers}: more secret headers, read from every form of the configuration. */
class CredentialHeadersConfigTest {

  @Test
  void noneByDefault() {
    TollgateConfig config = Loaders.yaml("tollgate:\n  mode: enforce\n");

    assertThat(config.credentialHeaders()).isEmpty();
    assertThat(config.toString()).doesNotContain("credential-headers");
  }

  @Test
  void readsAYamlListLowerCasedInOrderOnceEach() {
    TollgateConfig config = Loaders.yaml("""
        tollgate:
          credential-headers: [X-My-Gateway-Key, helicone-auth, x-my-gateway-key]
        """);

    assertThat(config.credentialHeaders()).containsExactly("x-my-gateway-key", "helicone-auth");
    assertThat(config.toString()).contains(", credential-headers=[x-my-gateway-key, helicone-auth],");
  }

  @Test
  void readsPropertiesAndTheEnvironment() {
    assertThat(Loaders.properties(Map.of(
            "tollgate.credential-headers[0]", "x-my-gateway-key",
            "tollgate.credential-headers[1]", "cf-aig-authorization"))
        .credentialHeaders()).containsExactly("x-my-gateway-key", "cf-aig-authorization");
    assertThat(Loaders.yaml("tollgate:\n  mode: enforce\n",
            Map.of("TOLLGATE_CREDENTIAL_HEADERS", "x-a, x-b"))
        .credentialHeaders()).containsExactly("x-a", "x-b");
  }

  @Test
  void refusesWhatIsNoHeaderNameNamingTheEntry() {
    assertThatThrownBy(() -> Loaders.yaml("""
            tollgate:
              credential-headers: [x-ok, "x bad"]
            """))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.credential-headers[1] must be a header name (letters, digits and"
            + " !#$%&'*+-.^_`|~), was x bad");
    assertThatThrownBy(() -> TollgateConfig.builder().credentialHeaders(List.of("")))
        .hasMessage("tollgate.credential-headers[0] must be a header name (letters, digits and"
            + " !#$%&'*+-.^_`|~), was \"\"");
  }

  @Test
  void isPartOfTheConfigurationsEquality() {
    TollgateConfig with = TollgateConfig.builder().credentialHeaders(List.of("x-a")).build();

    assertThat(with).isEqualTo(TollgateConfig.builder().credentialHeaders(List.of("X-A")).build());
    assertThat(with).isNotEqualTo(TollgateConfig.ofDefaults());
  }
}
