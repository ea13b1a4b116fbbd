package io.tollgate.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProviderApiTest {

  @Test
  void readsTheConfigurationNamesIgnoringCaseAndBlanks() {
    assertThat(ProviderApi.fromConfig("openai")).isEqualTo(ProviderApi.OPENAI);
    assertThat(ProviderApi.fromConfig(" Azure-OpenAI ")).isEqualTo(ProviderApi.AZURE_OPENAI);
    assertThat(ProviderApi.fromConfig("anthropic")).isEqualTo(ProviderApi.ANTHROPIC);
  }

  @Test
  void rejectsAnUnknownNameNamingTheValueAndTheAcceptedOnes() {
    assertThatThrownBy(() -> ProviderApi.fromConfig("gemini"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("api must be one of openai, azure-openai, anthropic, was gemini");
  }

  @Test
  void eachApiHasItsOwnProtocol() {
    for (ProviderApi api : ProviderApi.values()) {
      assertThat(api.protocol().api()).isEqualTo(api);
    }
  }
}
