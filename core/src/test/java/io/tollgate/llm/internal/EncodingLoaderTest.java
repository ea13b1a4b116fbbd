package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * o200k_base loaded from the packed ranks tokenizes exactly as jtokkit's own o200k_base: the same
 * token ids for text of every kind the split pattern treats differently.
 */
class EncodingLoaderTest {

  private static final Encoding PACKED = new EncodingLoader().load(EncodingType.O200K_BASE);
  private static final Encoding JTOKKIT =
      Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

  @Test
  void givesTheSameTokensAsJtokkitForTextOfEveryKind() {
    List<String> texts = EncodingTexts.everyKind();
    for (String text : texts) {
      assertThat(PACKED.encodeOrdinary(text).boxed()).as(text)
          .isEqualTo(JTOKKIT.encodeOrdinary(text).boxed());
    }
    assertThat(PACKED.countTokensOrdinary("Say hello to the benchmark in five words.")).isEqualTo(9);
  }

  @Test
  void givesTheSameTokensAsJtokkitForRandomText() {
    List<String> texts = EncodingTexts.random(20261129, 300, 200);
    for (String text : texts) {
      assertThat(PACKED.encodeOrdinary(text).boxed()).as(text)
          .isEqualTo(JTOKKIT.encodeOrdinary(text).boxed());
    }
  }

  @Test
  void keepsTheEncodingsNameAndItsSpecialTokens() {
    assertThat(PACKED.getName()).isEqualTo("o200k_base");
    // jtokkit refuses to encode a special token outside the ordinary path; it must know it as one
    for (String special : List.of("<|endoftext|>", "<|endofprompt|>")) {
      assertThatThrownBy(() -> PACKED.encode("a " + special))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessage("Encoding special tokens is not supported.");
      assertThatThrownBy(() -> JTOKKIT.encode("a " + special))
          .isInstanceOf(UnsupportedOperationException.class);
    }
    assertThat(PACKED.encode("<|endoftext").boxed()).isEqualTo(JTOKKIT.encode("<|endoftext").boxed());
  }
}
