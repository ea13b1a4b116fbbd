package io.tollgate.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TollgateAttributesTest {

  @Test
  void textFromOutsideKeepsItsFirstCharactersAndNeverHalfOfOne() {
    assertThat(TollgateAttributes.fromOutside("gpt-4o")).isEqualTo("gpt-4o");
    String exact = "m".repeat(TollgateAttributes.MAX_OUTSIDE_TEXT);
    assertThat(TollgateAttributes.fromOutside(exact)).isSameAs(exact);
    assertThat(TollgateAttributes.fromOutside(exact + "m")).isEqualTo("m".repeat(127) + "\u2026");
    // an emoji (two chars) straddling the cut is dropped whole
    String straddling = "a".repeat(126) + "\uD83D\uDE00" + "tail";
    assertThat(TollgateAttributes.fromOutside(straddling)).isEqualTo("a".repeat(126) + "\u2026");
  }
}
