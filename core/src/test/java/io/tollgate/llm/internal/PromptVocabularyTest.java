package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A text counted with the tokens found within it ({@link PromptVocabulary}) gets the very token ids
 * jtokkit's whole encoding gives it, for both packed encodings (o200k_base split by its pattern,
 * cl100k_base by jtokkit's own parser): every kind of text the splitters treat differently, random
 * text, and pieces long enough for jtokkit's other merge path.
 */
class PromptVocabularyTest {

  private static final EncodingLoader LOADER = new EncodingLoader();
  private static final Map<EncodingType, PromptVocabulary> VOCABULARIES = new EnumMap<>(Map.of(
      EncodingType.O200K_BASE, LOADER.promptVocabulary(EncodingType.O200K_BASE),
      EncodingType.CL100K_BASE, LOADER.promptVocabulary(EncodingType.CL100K_BASE)));
  private static final PromptVocabulary VOCABULARY = VOCABULARIES.get(EncodingType.O200K_BASE);
  private static final Encoding WHOLE =
      Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
  private static final Encoding WHOLE_CL100K =
      Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

  @ParameterizedTest
  @EnumSource(names = {"O200K_BASE", "CL100K_BASE"})
  void givesTheWholeEncodingsTokensForTextOfEveryKind(EncodingType type) {
    List<String> texts = new ArrayList<>(EncodingTexts.everyKind());
    texts.add("x");
    for (String text : texts) {
      assertSameTokens(type, text);
    }
    assertThat(VOCABULARIES.get(type).countTokensOrdinary("Say hello to the benchmark in five words."))
        .isEqualTo(9);
  }

  @ParameterizedTest
  @EnumSource(names = {"O200K_BASE", "CL100K_BASE"})
  void givesTheWholeEncodingsTokensForRandomText(EncodingType type) {
    for (String text : EncodingTexts.random(20261202, 300, 400)) {
      assertSameTokens(type, text);
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"O200K_BASE", "CL100K_BASE"})
  void givesTheWholeEncodingsTokensForLongPieces(EncodingType type) {
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
      assertSameTokens(type, text);
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

  private static void assertSameTokens(EncodingType type, String text) {
    PromptVocabulary vocabulary = VOCABULARIES.get(type);
    Encoding whole = type == EncodingType.O200K_BASE ? WHOLE : WHOLE_CL100K;
    assertThat(vocabulary.encodingFor(text).encodeOrdinary(text).boxed())
        .as("%s: %.60s", type, text)
        .isEqualTo(whole.encodeOrdinary(text).boxed());
    assertThat(vocabulary.countTokensOrdinary(text)).isEqualTo(whole.countTokensOrdinary(text));
  }
}
