package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fallbacks are followed from fallback to fallback, so their graph must end and stay in one API family. */
class FallbackGraphTest {

  private static TollgateConfig load(String yaml) {
    return TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml(yaml);
  }

  @Test
  void rejectsAChainThatLeadsBackToItsStart() {
    assertThatThrownBy(() -> load("""
        tollgate:
          providers:
            a: { base-url: "http://127.0.0.1:9001", fallbacks: [b] }
            b: { base-url: "http://127.0.0.1:9002", fallbacks: [c] }
            c: { base-url: "http://127.0.0.1:9003", fallbacks: [a] }
        """))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.a.fallbacks must not lead back to a, was the cycle a -> b -> c -> a");
  }

  @Test
  void acceptsADiamond() {
    TollgateConfig config = load("""
        tollgate:
          providers:
            a: { base-url: "http://127.0.0.1:9001", fallbacks: [b, c] }
            b: { base-url: "http://127.0.0.1:9002", fallbacks: [c] }
            c: { base-url: "http://127.0.0.1:9003" }
        """);

    assertThat(config.providers().keySet()).containsExactly("a", "b", "c");
  }

  @Test
  void rejectsAFallbackOfAnotherApiFamily() {
    assertThatThrownBy(() -> load("""
        tollgate:
          providers:
            openai: { base-url: "http://127.0.0.1:9001", fallbacks: [claude] }
            claude: { base-url: "http://127.0.0.1:9002", api: anthropic }
        """))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.openai.fallbacks[0] must speak the same API family as openai"
            + " (openai), was claude (anthropic)");
  }
}
