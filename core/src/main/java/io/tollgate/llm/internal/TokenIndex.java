package io.tollgate.llm.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An encoding's tokens found by their bytes with no map built: the packed ranks ({@link
 * PackedRanks}) and, packed beside them at build time, the ranks in the order of their tokens'
 * bytes (unsigned); a lookup is a binary search over that order. Reading it is two bulk reads and
 * one pass over the token lengths, against the 200,000 map entries jtokkit builds, which lets
 * {@link PromptVocabulary} count a prompt exactly while jtokkit's encoding is still loading.
 *
 * <pre>
 * sorted ranks: "TGS1" | count (4 bytes, big-endian) | count × rank (4 bytes, big-endian)
 * </pre>
 */
public final class TokenIndex {

  private static final byte[] MAGIC = "TGS1".getBytes(StandardCharsets.US_ASCII);

  /** The packed ranks file as read: each token's bytes after its length byte. */
  private final byte[] packed;
  /** By rank, where its token's bytes start in {@link #packed}. */
  private final int[] starts;
  /** The ranks, their tokens' bytes in ascending unsigned order. */
  private final int[] byBytes;

  private TokenIndex(byte[] packed, int[] starts, int[] byBytes) {
    this.packed = packed;
    this.starts = starts;
    this.byBytes = byBytes;
  }

  /** @throws IOException when either file is not whole, or they do not belong together */
  public static TokenIndex read(InputStream packedRanks, InputStream sortedRanks)
      throws IOException {
    byte[] packed = packedRanks.readAllBytes();
    int[] starts = PackedRanks.tokenStarts(packed);
    byte[] sorted = sortedRanks.readAllBytes();
    if (sorted.length < 8 || !Arrays.equals(sorted, 0, 4, MAGIC, 0, 4)) {
      throw new IOException("not sorted ranks (no TGS1 header)");
    }
    int count = ByteBuffer.wrap(sorted, 4, 4).getInt();
    if (count != starts.length || sorted.length != 8 + 4L * count) {
      throw new IOException("sorted ranks hold " + (sorted.length - 8) / 4 + " ranks for "
          + starts.length + " tokens");
    }
    int[] byBytes = new int[count];
    ByteBuffer.wrap(sorted, 8, 4 * count).asIntBuffer().get(byBytes);
    for (int rank : byBytes) {
      if (rank < 0 || rank >= count) {
        throw new IOException("sorted ranks name rank " + rank + " of " + count);
      }
    }
    return new TokenIndex(packed, starts, byBytes);
  }

  /** The sorted ranks of {@code tokens} (token bytes by rank), as the build writes them. */
  static byte[] sortedRanks(byte[][] tokens) {
    Integer[] ranks = new Integer[tokens.length];
    for (int rank = 0; rank < ranks.length; rank++) {
      ranks[rank] = rank;
    }
    Arrays.sort(ranks, (a, b) -> Arrays.compareUnsigned(tokens[a], tokens[b]));
    ByteBuffer out = ByteBuffer.allocate(8 + 4 * tokens.length);
    out.put(MAGIC).putInt(tokens.length);
    for (Integer rank : ranks) {
      out.putInt(rank);
    }
    return out.array();
  }

  /**
   * Where the first token not below {@code bytes[from, to)} stands in byte order (the count of
   * tokens when there is none): the token itself when there is one, else the first that goes on
   * from those bytes, when any does.
   */
  int lowerBound(byte[] bytes, int from, int to) {
    int low = 0;
    int high = byBytes.length;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (compare(byBytes[middle], bytes, from, to) < 0) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  /** The rank at {@code position} in byte order. */
  int rankAt(int position) {
    return byBytes[position];
  }

  /** True when the token at {@code position} in byte order begins with {@code bytes[from, to)}. */
  boolean startsWith(int position, byte[] bytes, int from, int to) {
    if (position >= byBytes.length) {
      return false;
    }
    int start = starts[byBytes[position]];
    int length = tokenLength(start);
    return length >= to - from
        && Arrays.equals(packed, start, start + to - from, bytes, from, to);
  }

  /** The length of the token at {@code position} in byte order. */
  int lengthAt(int position) {
    return tokenLength(starts[byBytes[position]]);
  }

  private int compare(int rank, byte[] bytes, int from, int to) {
    int start = starts[rank];
    return Arrays.compareUnsigned(packed, start, start + tokenLength(start), bytes, from, to);
  }

  private int tokenLength(int start) {
    return PackedRanks.tokenLength(packed, start);
  }
}
