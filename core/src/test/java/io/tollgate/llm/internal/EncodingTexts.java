package io.tollgate.llm.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Texts that tell two o200k_base encodings apart, should they tokenize differently. */
final class EncodingTexts {

  private EncodingTexts() {}

  /** One of every kind o200k_base's split pattern treats differently. */
  static List<String> everyKind() {
    return List.of(
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
  }

  /**
   * {@code count} texts of 1 to {@code maxLength} characters drawn from ASCII, whitespace, Latin,
   * Greek and Cyrillic, Arabic, kana, CJK, Hangul, emoji and combining marks.
   */
  static List<String> random(long seed, int count, int maxLength) {
    SplittableRandom random = new SplittableRandom(seed);
    int[][] ranges = {{0x20, 0x7e}, {0x09, 0x0d}, {0xa0, 0x24f}, {0x370, 0x4ff}, {0x600, 0x6ff},
        {0x3040, 0x30ff}, {0x4e00, 0x4fff}, {0xac00, 0xacff}, {0x1f300, 0x1f64f}, {0x300, 0x36f}};
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StringBuilder text = new StringBuilder();
      int length = 1 + random.nextInt(maxLength);
      while (text.length() < length) {
        int[] range = ranges[random.nextInt(ranges.length)];
        text.appendCodePoint(range[0] + random.nextInt(range[1] - range[0] + 1));
      }
      texts.add(text.toString());
    }
    return texts;
  }
}
