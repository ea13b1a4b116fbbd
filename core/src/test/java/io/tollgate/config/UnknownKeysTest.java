package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A key Tollgate does not read fails, naming it and the key it most likely meant. */
class UnknownKeysTest {

  private static final String OPENAI = """
      tollgate:
        providers:
          openai:
            base-url: https://api.openai.com
      """;

  @Test
  void aTypoInALimitNameFailsWithTheIntendedName() {
    assertThatThrownBy(() -> Loaders.yaml(OPENAI + "      limits:\n        tokens-per-minite: 200000\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.openai.limits.tokens-per-minite is not a known key;"
            + " did you mean tokens-per-minute?");
  }

  @Test
  void camelCaseIsNotReadButPointsToTheKebabCaseKey() {
    assertThatThrownBy(() -> Loaders.yaml(OPENAI + "      limits:\n        tokensPerMinute: 200000\n"))
        .hasMessage("tollgate.providers.openai.limits.tokensPerMinute is not a known key;"
            + " did you mean tokens-per-minute?");
  }

  @Test
  void aKeyLikeNoOtherListsTheKnownOnes() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  breaker:\n    half-open-calls: 1\n"))
        .hasMessage("tollgate.breaker.half-open-calls is not a known key;"
            + " known keys here: failures, window, open-for, max-open-for");
  }

  @Test
  void anUnknownTopLevelKeySuggestsTheClosest() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  on-limits: wait\n"))
        .hasMessage("tollgate.on-limits is not a known key; did you mean on-limit?");
  }

  @Test
  void anUnknownProviderKeySuggestsTheClosest() {
    assertThatThrownBy(() -> Loaders.yaml(OPENAI + "      apikey: sk-do-not-print\n"))
        .hasMessage("tollgate.providers.openai.apikey is not a known key; did you mean api-key?");
  }

  @Test
  void aSectionNotIndentedUnderTheRootIsNamed() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  mode: enforce\nredis:\n  url: redis://cache:6379\n"))
        .hasMessage("redis is not a root key; did you mean tollgate.redis? Everything sits under tollgate:");
  }

  @Test
  void aDocumentWhoseRootIsTheTreeItselfIsRejected() {
    assertThatThrownBy(() -> Loaders.yaml("mode: shadow\n"))
        .hasMessage("mode is not a root key; did you mean tollgate.mode? Everything sits under tollgate:");
  }

  @Test
  void aMisspeltRootIsNamed() {
    assertThatThrownBy(() -> Loaders.yaml("tolgate:\n  mode: shadow\n"))
        .hasMessage("tolgate is not a known key; did you mean tollgate?");
  }

  @Test
  void anotherApplicationsRootIsRejected() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  mode: shadow\nspring:\n  application: x\n"))
        .hasMessage("spring is not a known key; everything sits under tollgate:");
  }

  @Test
  void aValueWhereASectionBelongsFails() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  redis: redis://cache:6379\n"))
        .hasMessage("tollgate.redis must be a section of keys, was a single value");
  }

  @Test
  void aSectionWhereAValueBelongsFails() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  mode:\n    name: enforce\n"))
        .hasMessage("tollgate.mode must be a single value, was a section");
  }

  @Test
  void aListItemThatIsASectionFails() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  redis:\n    cluster:\n      - host: a\n"))
        .hasMessage("tollgate.redis.cluster[0] must be a single value, was a section");
  }

  @Test
  void aKeyWrittenTwiceFails() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  mode: enforce\n  mode: off\n"))
        .hasMessage("tollgate.mode is set twice");
  }

  @Test
  void anUnknownPropertyFailsWithTheIntendedName() {
    assertThatThrownBy(() -> Loaders.properties(Map.of(
        "tollgate.providers.openai.base-url", "https://api.openai.com",
        "tollgate.providers.openai.limits.token-per-minute", "5")))
        .hasMessage("tollgate.providers.openai.limits.token-per-minute is not a known key;"
            + " did you mean tokens-per-minute?");
  }

  @Test
  void aPropertyOutsideTheRootFails() {
    assertThatThrownBy(() -> Loaders.properties(Map.of("redis.url", "redis://cache:6379")))
        .hasMessage("redis is not a root key; did you mean tollgate.redis? Everything sits under tollgate:");
  }
}
