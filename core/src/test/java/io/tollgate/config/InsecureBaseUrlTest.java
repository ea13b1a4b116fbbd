package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A provider's own api-key crosses the network only over https, unless it stays on this machine or the user says so. */
class InsecureBaseUrlTest {

  private static TollgateConfig backup(String baseUrl, String more) {
    return Loaders.yaml("""
        tollgate:
          providers:
            backup:
              base-url: %s
        %s""".formatted(baseUrl, more.indent(6)));
  }

  @Test
  void refusesAnApiKeyOverPlainHttpBeyondLoopback() {
    assertThatThrownBy(() -> backup("http://10.0.0.7:9002", "api-key: sk-backup"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.backup.base-url must be https:// when the provider has an api-key"
            + " (or set tollgate.providers.backup.allow-insecure: true), was http://10.0.0.7:9002");
  }

  @Test
  void refusesItForAHostNameAndHidesAPasswordInTheUrl() {
    assertThatThrownBy(() -> backup("HTTP://user:pw@gateway.internal/v1", "api-key: sk-backup"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.backup.base-url must be https:// when the provider has an api-key"
            + " (or set tollgate.providers.backup.allow-insecure: true), was HTTP://***@gateway.internal/v1");
  }

  @Test
  void refusesItFromPropertiesToo() {
    assertThatThrownBy(() -> Loaders.properties(Map.of(
            "tollgate.providers.backup.base-url", "http://128.0.0.1:9002",
            "tollgate.providers.backup.api-key", "sk-backup")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.backup.base-url must be https:// when the provider has an api-key"
            + " (or set tollgate.providers.backup.allow-insecure: true), was http://128.0.0.1:9002");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "http://127.0.0.1:9002", "http://127.8.9.10:9002", "http://localhost:9002", "http://LocalHost",
      "http://[::1]:9002", "http://[0:0:0:0:0:0:0:1]"})
  void allowsAnApiKeyOverPlainHttpToLoopback(String baseUrl) {
    TollgateConfig config = backup(baseUrl, "api-key: sk-backup");

    ProviderConfig backup = config.provider("backup").orElseThrow();
    assertThat(backup.baseUrl()).isEqualTo(URI.create(baseUrl));
    assertThat(backup.apiKey()).isPresent();
    assertThat(backup.allowInsecure()).isFalse();
  }

  @Test
  void allowsAnApiKeyOverHttps() {
    TollgateConfig config = backup("https://10.0.0.7:9002", "api-key: sk-backup");

    assertThat(config.provider("backup").orElseThrow().baseUrl()).isEqualTo(URI.create("https://10.0.0.7:9002"));
  }

  @Test
  void allowsAnApiKeyOverPlainHttpWhenTheProviderAllowsInsecure() {
    TollgateConfig config = backup("http://10.0.0.7:9002", "api-key: sk-backup\nallow-insecure: true");

    ProviderConfig backup = config.provider("backup").orElseThrow();
    assertThat(backup.allowInsecure()).isTrue();
    assertThat(backup.toString()).isEqualTo("{base-url=http://10.0.0.7:9002, api=openai, api-key=***, allow-insecure=true}");
  }

  @Test
  void allowsPlainHttpWithoutAnApiKey() {
    TollgateConfig config = backup("http://10.0.0.7:9002", "api: openai");

    assertThat(config.provider("backup").orElseThrow().apiKey()).isEmpty();
  }

  @Test
  void allowsPlainHttpWhenTheApiKeyIsEmpty() {
    TollgateConfig config = backup("http://10.0.0.7:9002", "api-key: ${BACKUP_API_KEY:}");

    assertThat(config.provider("backup").orElseThrow().apiKey()).isEmpty();
  }

  @Test
  void allowInsecureIsABoolean() {
    assertThatThrownBy(() -> backup("http://10.0.0.7:9002", "api-key: sk-backup\nallow-insecure: yes"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.backup.allow-insecure must be true or false, was yes");
  }

  @Test
  void theBuilderRefusesItToo() {
    ProviderConfig.Builder builder = ProviderConfig.builder("backup").baseUrl("http://10.0.0.7").apiKey("sk-backup");

    assertThatThrownBy(builder::build)
        .isInstanceOf(ConfigException.class)
        .hasMessage("base-url must be https:// when the provider has an api-key"
            + " (or set tollgate.providers.backup.allow-insecure: true), was http://10.0.0.7");
    assertThat(builder.allowInsecure(true).build().allowInsecure()).isTrue();
  }
}
