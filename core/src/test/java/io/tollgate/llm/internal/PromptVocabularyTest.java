package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A text counted with the tokens found within it ({@link PromptVocabulary}) gets the very token ids
 * jtokkit's whole o200k_base gives it: every kind of text the split pattern treats differently,
 * random text, and pieces long enough for jtokkit's other merge path.
 */
class PromptVocabularyTest {

  private static final PromptVocabulary VOCABULARY = new EncodingLoader().o200kPromptVocabulary();
  private static final Encoding WHOLE =
      Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

  @Test
  void givesTheWholeEncodingsTokensForTextOfEveryKind() {
    List<String> texts = new ArrayList<>(EncodingTexts.everyKind());
    texts.add("x");
    for (String text : texts) {
      assertSameTokens(text);
    }
    assertThat(VOCABULARY.countTokensOrdinary("Say hello to the benchmark in five words."))
        .isEqualTo(9);
  }

  @Test
  void givesTheWholeEncodingsTokensForRandomText() {
    for (String text : EncodingTexts.random(20261202, 300, 400)) {
      assertSameTokens(text);
    }
  }

  @Test
  void givesTheWholeEncodingsTokensForLongPieces() {
    SplittableRandom random = new SplittableRandom(7);
    StringBuilder base64 = new StringBuilder();
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 3_000; i++) {
      base64.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    List<String> texts = List.of(
        "a".repeat(2_000),
        " ".repeat(1_200) + "end",
        "data:image/png;base64," + base64,
        "Supercalifragilisticexpialidocious".repeat(40),
        "日本語".repeat(700),
        "!?".repeat(900) + "\n".repeat(600));
    for (String text : texts) {
      assertSameTokens(text);
    }
  }

  @Test
  void needsOnlyTheTokensWithinTheText() {
    String text = "Say hello to the benchmark in five words.";

    Encoding forText = VOCABULARY.encodingFor(text);

    // every byte of the text, and what merges of them are tokens: far below the 200,000
    assertThat(forText.encodeOrdinary("Say hello").boxed())
        .isEqualTo(WHOLE.encodeOrdinary("Say hello").boxed());
    assertThat(WHOLE.countTokensOrdinary("owl")).isEqualTo(1);
    assertThat(forText.countTokensOrdinary("owl")).as("a word whose bytes the text holds, not it")
        .isEqualTo(3);
  }

  private static void assertSameTokens(String text) {
    assertThat(VOCABULARY.encodingFor(text).encodeOrdinary(text).boxed())
        .as("%.60s", text)
        .isEqualTo(WHOLE.encodeOrdinary(text).boxed());
    assertThat(VOCABULARY.countTokensOrdinary(text)).isEqualTo(WHOLE.countTokensOrdinary(text));
  }
}
