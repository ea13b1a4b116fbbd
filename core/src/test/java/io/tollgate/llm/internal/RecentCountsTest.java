package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Counts of long texts remembered by digest: a chat's history is tokenized once, not per turn. */
class RecentCountsTest {

  private final List<String> counted = new ArrayList<>();
  private final RecentCounts recent = new RecentCounts(text -> {
    counted.add(text);
    return text.length() / 3;
  });

  private static String text(char c, int length) {
    return String.valueOf(c).repeat(length);
  }

  @Test
  void aLongTextIsCountedOnceAndAnsweredFromMemoryAfter() {
    String history = text('h', RecentCounts.MIN_CHARS);

    assertThat(recent.count(history)).isEqualTo(85);
    assertThat(recent.count(new String(history.toCharArray()))).isEqualTo(85);

    assertThat(counted).hasSize(1);
    assertThat(recent.kept()).isEqualTo(1);
  }

  @Test
  void aShortTextIsCountedEachTimeAndNotKept() {
    String shortText = text('s', RecentCounts.MIN_CHARS - 1);

    recent.count(shortText);
    recent.count(shortText);

    assertThat(counted).hasSize(2);
    assertThat(recent.kept()).isZero();
  }

  @Test
  void textsOfOneLengthThatDifferInOneCharacterAreCountedApart() {
    String one = text('a', 300);
    String other = "b" + text('a', 299);

    recent.count(one);
    recent.count(other);

    assertThat(counted).containsExactly(one, other);
  }

  @Test
  void whenFullEverythingIsForgottenAtOnce() {
    for (int i = 0; i < RecentCounts.MAX_KEPT; i++) {
      recent.count(i + text('x', RecentCounts.MIN_CHARS));
    }
    assertThat(recent.kept()).isEqualTo(RecentCounts.MAX_KEPT);

    recent.count("new" + text('x', RecentCounts.MIN_CHARS));

    assertThat(recent.kept()).isEqualTo(1);
    assertThat(counted).hasSize(RecentCounts.MAX_KEPT + 1);
  }

  @Test
  void theDigestHoldsNoTextOfThePrompt() {
    String prompt = "my secret prompt " + text('p', RecentCounts.MIN_CHARS);

    RecentCounts.Digest digest = RecentCounts.Digest.of(prompt);

    assertThat(digest.toString()).doesNotContain("secret");
    assertThat(digest.length()).isEqualTo(prompt.length());
    assertThat(RecentCounts.Digest.class.getRecordComponents())
        .extracting(component -> component.getType().getName())
        .containsExactly("int", "int", "long");
  }
}
