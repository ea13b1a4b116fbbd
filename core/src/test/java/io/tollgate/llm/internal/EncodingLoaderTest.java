package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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
    List<String> texts = List.of(
        "hello world",
        "Say hello to the benchmark in five words.",
        "I'M sure they'RE here, aren't they? We'll see; you'd know. IT'S, she's, I've",
        "2 + 2 = 4; 1234567890 3.14159 -42 1e10 ١٢٣ 五十",
        "    indented\n\n\n\ttabs\r\n  trailing   \n",
        "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
        "def f(x):\n    return x ** 2  # square\n",
        "お誕生日おめでとう 生日快乐 생일 축하해요 С днём рождения",
        "naïve café façade Ærøskøbing ÉCOLE Straße",
        "emoji 👍🏽 and 🇫🇷 flags, 🤖✨",
        "<|endoftext|> is text here, as is <|endofprompt|>",
        "https://example.com/a/b?c=d&e=f#g //// ...!!! ???",
        "ǅungla ᾈ Ⅻ ﬁ");
    for (String text : texts) {
      assertThat(PACKED.encodeOrdinary(text).boxed()).as(text)
          .isEqualTo(JTOKKIT.encodeOrdinary(text).boxed());
    }
    assertThat(PACKED.countTokensOrdinary("Say hello to the benchmark in five words.")).isEqualTo(9);
  }

  @Test
  void givesTheSameTokensAsJtokkitForRandomText() {
    SplittableRandom random = new SplittableRandom(20261129);
    int[][] ranges = {{0x20, 0x7e}, {0x09, 0x0d}, {0xa0, 0x24f}, {0x370, 0x4ff}, {0x600, 0x6ff},
        {0x3040, 0x30ff}, {0x4e00, 0x4fff}, {0xac00, 0xacff}, {0x1f300, 0x1f64f}, {0x300, 0x36f}};
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      StringBuilder text = new StringBuilder();
      int length = 1 + random.nextInt(200);
      while (text.length() < length) {
        int[] range = ranges[random.nextInt(ranges.length)];
        text.appendCodePoint(range[0] + random.nextInt(range[1] - range[0] + 1));
      }
      texts.add(text.toString());
    }
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
