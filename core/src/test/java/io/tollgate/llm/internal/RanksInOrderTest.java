package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/** The ranks as jtokkit walks them: in rank order, each rank boxed once, nothing to change. */
class RanksInOrderTest {

  private final byte[] a = bytes("a");
  private final byte[] hello = bytes("hello");
  private final byte[] space = bytes(" ");
  private final RanksInOrder ranks = new RanksInOrder(new byte[][] {a, hello, space});

  @Test
  void walksTheTokensInRankOrderTheSameArraysAndTheSameBoxesEachTime() {
    List<Object> first = new ArrayList<>();
    List<Object> second = new ArrayList<>();
    ranks.forEach((token, rank) -> first.add(List.of(token, rank)));
    ranks.forEach((token, rank) -> second.add(List.of(token, rank)));

    assertThat(ranks).hasSize(3);
    assertThat(first).hasSize(3);
    for (int rank = 0; rank < 3; rank++) {
      List<?> once = (List<?>) first.get(rank);
      List<?> again = (List<?>) second.get(rank);
      assertThat(once.get(1)).isEqualTo(rank);
      assertThat(once.get(0)).isSameAs(again.get(0)); // the token's array, not a copy
      assertThat(once.get(1)).isSameAs(again.get(1)); // one Integer per rank
    }
    assertThat(((List<?>) first.get(1)).get(0)).isSameAs(hello);
  }

  @Test
  void itsEntriesAreTheSameAsItsWalk() {
    Iterator<Map.Entry<byte[], Integer>> entries = ranks.entrySet().iterator();

    assertThat(ranks.entrySet()).hasSize(3);
    for (byte[] token : new byte[][] {a, hello, space}) {
      Map.Entry<byte[], Integer> entry = entries.next();
      assertThat(entry.getKey()).isSameAs(token);
    }
    assertThat(entries.hasNext()).isFalse();
    assertThatThrownBy(entries::next).isInstanceOf(NoSuchElementException.class);
  }

  @Test
  void looksUpByTheArrayItselfAsAnyMapKeyedByBytesAndCannotBeChanged() {
    assertThat(ranks.get(hello)).isEqualTo(1);
    assertThat(ranks.get(bytes("hello"))).isNull(); // equal bytes, another array
    assertThat(ranks.containsKey(space)).isTrue();

    assertThatThrownBy(() -> ranks.put(bytes("b"), 3))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> ranks.entrySet().iterator().next().setValue(9))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> ranks.entrySet().iterator().remove())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void boxesRanksAboveTheJvmsIntegerCacheOnce() {
    byte[][] many = new byte[300][];
    for (int i = 0; i < many.length; i++) {
      many[i] = new byte[] {(byte) i};
    }
    RanksInOrder large = new RanksInOrder(many);
    List<Integer> first = new ArrayList<>();
    List<Integer> second = new ArrayList<>();
    large.forEach((token, rank) -> first.add(rank));
    large.forEach((token, rank) -> second.add(rank));

    assertThat(first.get(299)).isEqualTo(299).isSameAs(second.get(299));
    assertThat(first.get(200)).isEqualTo(200).isSameAs(second.get(200));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
