package io.tollgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.ProviderConfig;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProviderMatcherTest {

  private final ProviderConfig openai = ProviderConfig.builder("openai")
      .baseUrl("https://api.openai.com").build();
  private final ProviderConfig gateway = ProviderConfig.builder("gateway")
      .baseUrl("http://127.0.0.1:9002/llm/openai").build();
  private final ProviderConfig local = ProviderConfig.builder("local")
      .baseUrl("http://127.0.0.1:9002").build();
  private final ProviderMatcher matcher = ProviderMatcher.of(List.of(openai, local, gateway));

  @Test
  void matchesSchemeHostAndDefaultPort() {
    assertThat(matcher.match(URI.create("https://api.openai.com/v1/chat/completions")))
        .contains(openai);
    assertThat(matcher.match(URI.create("https://API.OpenAI.com:443/v1/responses"))).contains(openai);
    assertThat(matcher.match(URI.create("http://api.openai.com/v1/chat/completions"))).isEmpty();
    assertThat(matcher.match(URI.create("https://api.openai.com:8443/v1/chat/completions"))).isEmpty();
  }

  @Test
  void theLongestBasePathWins() {
    assertThat(matcher.match(URI.create("http://127.0.0.1:9002/llm/openai/v1/chat/completions")))
        .contains(gateway);
    assertThat(matcher.match(URI.create("http://127.0.0.1:9002/llm/openai"))).contains(gateway);
    assertThat(matcher.match(URI.create("http://127.0.0.1:9002/llm/openaiX/v1"))).contains(local);
    assertThat(matcher.match(URI.create("http://127.0.0.1:9002/v1/messages"))).contains(local);
  }

  @Test
  void leavesEveryOtherHostAlone() {
    assertThat(matcher.match(URI.create("https://example.com/v1/chat/completions"))).isEmpty();
    assertThat(matcher.match(URI.create("mailto:someone@example.com"))).isEmpty();
    assertThat(matcher.knowsHost("api.openai.com")).isTrue();
    assertThat(matcher.knowsHost("example.com")).isFalse();
  }
}
