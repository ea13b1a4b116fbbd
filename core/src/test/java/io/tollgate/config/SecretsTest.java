package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** API keys and Redis passwords stay out of toString and messages. */
class SecretsTest {

  @Test
  void aSecretPrintsAsAMask() {
    Secret secret = Secret.of("sk-live-123");

    assertThat(secret).hasToString("***");
    assertThat(secret.reveal()).isEqualTo("sk-live-123");
    assertThat(secret).isEqualTo(Secret.of("sk-live-123")).isNotEqualTo(Secret.of("sk-live-124"));
  }

  @Test
  void aProviderPrintsItsKeyAsAMask() {
    ProviderConfig provider = ProviderConfig.builder("openai")
        .baseUrl("https://api.openai.com")
        .apiKey("sk-live-123")
        .build();

    assertThat(provider).hasToString("{base-url=https://api.openai.com, api=openai, api-key=***}");
    assertThat(provider.apiKey().orElseThrow()).hasToString("***");
  }

  @Test
  void aRedisPasswordIsMaskedWhenPrinted() {
    RedisConfig redis = RedisConfig.builder().url("rediss://app:hunter2@cache:6380/1").build();

    assertThat(redis.url()).contains(URI.create("rediss://app:hunter2@cache:6380/1"));
    assertThat(redis.toString()).startsWith("{url=rediss://***@cache:6380/1,").doesNotContain("hunter2");
  }

  @Test
  void aClusterPasswordIsMaskedWhenPrinted() {
    RedisConfig redis = RedisConfig.builder()
        .cluster(List.of("rediss://app:hunter2@a:7000", "rediss://app:hunter2@b:7001")).build();

    assertThat(redis.password().orElseThrow()).hasToString("***");
    assertThat(redis.toString())
        .startsWith("{cluster=[rediss://***@a:7000, rediss://***@b:7001],")
        .doesNotContain("hunter2");
  }

  @Test
  void aClusterEntryThatDisagreesIsNamedWithoutEitherPassword() {
    assertThatThrownBy(() -> RedisConfig.builder()
        .cluster(List.of("redis://app:hunter2@a:7000", "redis://app:hunter3@b:7001")))
        .isInstanceOf(ConfigException.class)
        .hasMessageNotContaining("hunter")
        .hasMessageStartingWith("cluster[1] must carry the same user:password@ as cluster[0]");
  }

  @Test
  void aPasswordWithRawSlashOrAtIsNotShownWhenItBreaksTheUrl() {
    assertThatThrownBy(() -> RedisConfig.builder().url("redis://:hun/ter@2@cache:6379"))
        .isInstanceOf(ConfigException.class)
        .hasMessageEndingWith(", was redis://***@cache:6379");
    assertThatThrownBy(() -> RedisConfig.builder().cluster(List.of("rediss://:hun#ter@2@a:7000")))
        .isInstanceOf(ConfigException.class)
        .hasMessageEndingWith(", was rediss://***@a:7000");
  }

  @Test
  void noMessageRepeatsAnApiKey() {
    String yaml = """
        tollgate:
          providers:
            openai:
              base-url: https://api.openai.com
              api-key: sk-live-123
              api-kee: sk-live-456
        """;

    assertThatThrownBy(() -> Loaders.yaml(yaml))
        .hasMessage("tollgate.providers.openai.api-kee is not a known key; did you mean api-key?");
  }
}
