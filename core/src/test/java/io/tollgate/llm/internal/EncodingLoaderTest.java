package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * o200k_base and cl100k_base loaded from the packed ranks tokenize exactly as jtokkit's own: the
 * same token ids for text of every kind their splitters treat differently, and random text.
 */
class EncodingLoaderTest {

  private static final EncodingLoader LOADER = new EncodingLoader();

  @ParameterizedTest
  @EnumSource(names = {"O200K_BASE", "CL100K_BASE"})
  void givesTheSameTokensAsJtokkitForTextOfEveryKind(EncodingType type) {
    Encoding packed = LOADER.load(type);
    Encoding jtokkit = jtokkit(type);
    for (String text : EncodingTexts.everyKind()) {
      assertThat(packed.encodeOrdinary(text).boxed()).as(text)
          .isEqualTo(jtokkit.encodeOrdinary(text).boxed());
    }
    assertThat(packed.countTokensOrdinary("Say hello to the benchmark in five words.")).isEqualTo(9);
  }

  @ParameterizedTest
  @EnumSource(names = {"O200K_BASE", "CL100K_BASE"})
  void givesTheSameTokensAsJtokkitForRandomText(EncodingType type) {
    Encoding packed = LOADER.load(type);
    Encoding jtokkit = jtokkit(type);
    for (String text : EncodingTexts.random(20261129, 300, 200)) {
      assertThat(packed.encodeOrdinary(text).boxed()).as(text)
          .isEqualTo(jtokkit.encodeOrdinary(text).boxed());
    }
  }

  @ParameterizedTest
  @CsvSource({
    "O200K_BASE, '<|endoftext|>,<|endofprompt|>'",
    "CL100K_BASE, '<|endoftext|>,<|fim_prefix|>,<|fim_middle|>,<|fim_suffix|>,<|endofprompt|>'"})
  void keepsTheEncodingsNameAndItsSpecialTokens(EncodingType type, String specials) {
    Encoding packed = LOADER.load(type);
    Encoding jtokkit = jtokkit(type);
    assertThat(packed.getName()).isEqualTo(type.getName());
    // jtokkit refuses to encode a special token outside the ordinary path; it must know it as one
    for (String special : specials.split(",")) {
      assertThatThrownBy(() -> packed.encode("a " + special))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessage("Encoding special tokens is not supported.");
      assertThatThrownBy(() -> jtokkit.encode("a " + special))
          .isInstanceOf(UnsupportedOperationException.class);
    }
    assertThat(packed.encode("<|endoftext").boxed()).isEqualTo(jtokkit.encode("<|endoftext").boxed());
  }

  @Test
  void cl100kBaseIsSplitByJtokkitsOwnParser() {
    // the class jtokkit gives its own cl100k_base, not the pattern-split encoding of other ranks
    assertThat(LOADER.load(EncodingType.CL100K_BASE).getClass())
        .isSameAs(jtokkit(EncodingType.CL100K_BASE).getClass());
    assertThat(LOADER.load(EncodingType.CL100K_BASE).getClass().getSimpleName())
        .isEqualTo("Cl100kGptBytePairEncoding");
  }

  @Test
  void onlyTheTwoEncodingsTheBuildPacksArePacked() {
    assertThat(List.of(EncodingType.values())).filteredOn(EncodingLoader::packed)
        .containsExactly(EncodingType.CL100K_BASE, EncodingType.O200K_BASE);
    assertThat(EncodingLoader.packedRanks(EncodingType.CL100K_BASE))
        .isEqualTo("/io/tollgate/llm/cl100k_base.ranks");
  }

  private static Encoding jtokkit(EncodingType type) {
    return Encodings.newLazyEncodingRegistry().getEncoding(type);
  }
}
