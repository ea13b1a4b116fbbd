package io.tollgate.router;

import static io.tollgate.router.RewriteFixtures.BACKUP;
import static io.tollgate.router.RewriteFixtures.OPENAI;
import static io.tollgate.router.RewriteFixtures.REWRITER;
import static io.tollgate.router.RewriteFixtures.body;
import static io.tollgate.router.RewriteFixtures.openAiChat;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.llm.ProviderApi;
import io.tollgate.config.ProviderConfig;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Only the model's value changes in a rewritten body; every other byte is sent as the app wrote it. */
class RewrittenBodyTest {

  @Test
  void everyOtherFieldKeepsItsOrderDigitsEscapesAndSpacing() {
    String original = """
        {
          "user": "日本語 😀 \u00e9",
          "temperature": 0.1000000000000000055511151231257827,
          "model" : "gpt-4o",
          "seed": 123456789012345678901234567890,
          "top_p": 1.50, "penalty": 1e400, "zero": -0.0,
          "messages": [{"role": "user", "content": "h\\u00e9llo 😀 \\ud83d\\ude00 \\"quoted\\" 日本語"}],
          "metadata": {"model": "gpt-4o", "nested": {"a": [1, 2.0, null, true]}},
          "stream": false
        }""";

    OutboundRequest rewritten = REWRITER.rewrite(openAiChat(original), OPENAI, BACKUP).request();

    assertThat(body(rewritten)).isEqualTo(original.replace("\"model\" : \"gpt-4o\"", "\"model\" : \"gpt-4o-mini\""));
  }

  @Test
  void aBodyThatIsNotJsonIsSentUnchanged() {
    for (String notJson : new String[] {
        "{\"model\":\"gpt-4o\",", "{\"model\":\"gpt-4o\"} trailing", "[{\"model\":\"gpt-4o\"}]",
        "model=gpt-4o", ""}) {
      RewrittenRequest rewritten = REWRITER.rewrite(openAiChat(notJson), OPENAI, BACKUP);

      assertThat(body(rewritten.request())).isEqualTo(notJson);
      assertThat(rewritten.model()).isEmpty();
    }
  }

  @Test
  void aModelAbsentFromTheMapIsKept() {
    RewrittenRequest rewritten = REWRITER.rewrite(openAiChat("{\"model\":\"o3\",\"n\":2}"), OPENAI, BACKUP);

    assertThat(body(rewritten.request())).isEqualTo("{\"model\":\"o3\",\"n\":2}");
    assertThat(rewritten.model()).contains("o3");
  }

  @Test
  void aModelWrittenWithEscapesIsStillFoundInTheMap() {
    OutboundRequest rewritten = REWRITER.rewrite(openAiChat("{\"model\":\"gpt\\u002d4o\"}"), OPENAI, BACKUP).request();

    assertThat(body(rewritten)).isEqualTo("{\"model\":\"gpt-4o-mini\"}");
  }

  @Test
  void aMappedModelIsWrittenAsAProperJsonString() {
    ProviderConfig odd = ProviderConfig.builder("odd").baseUrl("http://127.0.0.1:9005").api(ProviderApi.OPENAI)
        .apiKey("sk-odd").modelMap(Map.of("gpt-4o", "team/\"fast\" é")).build();

    OutboundRequest rewritten = REWRITER.rewrite(openAiChat("{\"model\":\"gpt-4o\"}"), OPENAI, odd).request();

    assertThat(rewritten.body()).isEqualTo("{\"model\":\"team/\\\"fast\\\" é\"}".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void onlyTopLevelModelsChangeAndARepeatedOneChangesEverywhere() {
    OutboundRequest rewritten = REWRITER.rewrite(openAiChat(
        "{\"model\":\"gpt-4o\",\"tools\":[{\"model\":\"gpt-4o\"}],\"model\":\"gpt-4o\"}"), OPENAI, BACKUP).request();

    assertThat(body(rewritten))
        .isEqualTo("{\"model\":\"gpt-4o-mini\",\"tools\":[{\"model\":\"gpt-4o\"}],\"model\":\"gpt-4o-mini\"}");
  }

  @Test
  void aModelThatIsNotAStringIsLeftAlone() {
    RewrittenRequest rewritten = REWRITER.rewrite(openAiChat("{\"model\":null}"), OPENAI, BACKUP);

    assertThat(body(rewritten.request())).isEqualTo("{\"model\":null}");
    assertThat(rewritten.model()).isEmpty();
  }
}
