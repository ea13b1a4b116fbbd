package io.tollgate.llm.internal;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An encoding's ranks as jtokkit takes them (token bytes to rank), held as the tokens in rank order
 * rather than as a hash map: while jtokkit builds its own tables from them it only asks the size and
 * walks the entries (twice, with {@link #forEach}), so 200,000 hashed map entries made for that would
 * be garbage at once, about 9 MB of it for {@code o200k_base}, made and copied by the collector while
 * the JVM starts. Unmodifiable. Keys are arrays, so a lookup compares identities, as in any map keyed
 * by {@code byte[]}; it is a linear scan here, and nothing looks up.
 */
final class RanksInOrder extends AbstractMap<byte[], Integer> {

  private final byte[][] tokens;
  /** Boxed once: jtokkit keeps each rank in two of its tables. */
  private final Integer[] ranks;

  /** {@code tokens[rank]} is the token of that rank; the array is kept, not copied. */
  RanksInOrder(byte[][] tokens) {
    this.tokens = tokens;
    this.ranks = new Integer[tokens.length];
    for (int rank = 0; rank < tokens.length; rank++) {
      ranks[rank] = rank;
    }
  }

  @Override
  public int size() {
    return tokens.length;
  }

  @Override
  public void forEach(BiConsumer<? super byte[], ? super Integer> action) {
    for (int rank = 0; rank < tokens.length; rank++) {
      action.accept(tokens[rank], ranks[rank]);
    }
  }

  @Override
  public Set<Entry<byte[], Integer>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return tokens.length;
      }

      @Override
      public Iterator<Entry<byte[], Integer>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < tokens.length;
          }

          @Override
          public Entry<byte[], Integer> next() {
            if (next >= tokens.length) {
              throw new NoSuchElementException();
            }
            Entry<byte[], Integer> entry = new SimpleImmutableEntry<>(tokens[next], ranks[next]);
            next++;
            return entry;
          }
        };
      }
    };
  }
}
