package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Finding tokens by their bytes in the packed ranks and the ranks sorted beside them. */
class TokenIndexTest {

  private static final List<byte[]> TOKENS = List.of(bytes("b"), bytes("a"), bytes("ab"),
      bytes("abc"), new byte[] {(byte) 0xe3}, bytes("ba"), new byte[] {(byte) 0xe3, (byte) 0x81});

  @Test
  void findsEachTokensRankAndWhatGoesOnFromABeginning() throws IOException {
    TokenIndex index = index(TOKENS);

    assertThat(rankOf(index, "a")).isEqualTo(1);
    assertThat(rankOf(index, "ab")).isEqualTo(2);
    assertThat(rankOf(index, "abc")).isEqualTo(3);
    assertThat(rankOf(index, "ba")).isEqualTo(5);
    byte[] high = {(byte) 0xe3, (byte) 0x81};
    assertThat(index.rankAt(index.lowerBound(high, 0, 1))).isEqualTo(4); // unsigned: after ASCII
    assertThat(isExactly(index, index.lowerBound(high, 0, 2), high, 0, 2)).isTrue();
    assertThat(index.rankAt(index.lowerBound(high, 0, 2))).isEqualTo(6);

    byte[] abd = bytes("abd");
    int position = index.lowerBound(abd, 0, 3);
    assertThat(isExactly(index, position, abd, 0, 3)).isFalse();
    assertThat(index.startsWith(position, abd, 0, 3)).as("no token begins with abd").isFalse();
    byte[] bc = bytes("bc");
    assertThat(index.startsWith(index.lowerBound(bc, 0, 2), bc, 0, 2)).isFalse();
    byte[] abcd = bytes("xabcx");
    assertThat(index.startsWith(index.lowerBound(abcd, 1, 3), abcd, 1, 3))
        .as("ab, within a longer array, begins abc").isTrue();
    byte[] last = {(byte) 0xff};
    assertThat(index.lowerBound(last, 0, 1)).as("past every token").isEqualTo(TOKENS.size());
    assertThat(index.startsWith(TOKENS.size(), last, 0, 1)).isFalse();
  }

  @Test
  void theBuildSortedEveryRankOfO200kBaseByItsBytes() throws IOException {
    TokenIndex index;
    try (InputStream packed = resource(EncodingLoader.packedRanks(EncodingType.O200K_BASE));
        InputStream sorted = resource(EncodingLoader.sortedRanks(EncodingType.O200K_BASE))) {
      index = TokenIndex.read(packed, sorted);
    }
    byte[] hello = bytes(" hello");

    assertThat(isExactly(index, index.lowerBound(hello, 0, 6), hello, 0, 6)).isTrue();
    assertThat(index.rankAt(index.lowerBound(hello, 0, 6))).isEqualTo(
        Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE)
            .encodeOrdinary(" hello").get(0));
    byte[] bang = bytes("!");
    assertThat(index.rankAt(index.lowerBound(bang, 0, 1))).isEqualTo(0);
  }

  @Test
  void refusesSortedRanksThatDoNotBelongToThePackedOnes() throws IOException {
    byte[] packed = packed(TOKENS);
    byte[] sorted = TokenIndex.sortedRanks(TOKENS.toArray(new byte[0][]));
    byte[] shorter = TokenIndex.sortedRanks(TOKENS.subList(0, 3).toArray(new byte[0][]));
    byte[] outOfRange = sorted.clone();
    outOfRange[outOfRange.length - 1] = 9;
    byte[] noHeader = sorted.clone();
    noHeader[0] = 'X';

    assertThatThrownBy(() -> read(packed, shorter)).isInstanceOf(IOException.class)
        .hasMessage("sorted ranks hold 3 ranks for 7 tokens");
    assertThatThrownBy(() -> read(packed, outOfRange)).isInstanceOf(IOException.class)
        .hasMessage("sorted ranks name rank 9 of 7");
    assertThatThrownBy(() -> read(packed, noHeader)).isInstanceOf(IOException.class)
        .hasMessage("not sorted ranks (no TGS1 header)");
    assertThatThrownBy(() -> read(Arrays.copyOf(packed, packed.length - 1), sorted))
        .isInstanceOf(IOException.class).hasMessage("packed ranks cut short at rank 6 of 7");
  }

  private static int rankOf(TokenIndex index, String token) {
    byte[] bytes = bytes(token);
    int position = index.lowerBound(bytes, 0, bytes.length);
    assertThat(isExactly(index, position, bytes, 0, bytes.length)).as(token).isTrue();
    return index.rankAt(position);
  }

  /**
   * True when the token at {@code position} in byte order is {@code bytes[from, to)} exactly: it
   * begins with them and is as long, the test {@link PromptVocabulary} makes.
   */
  private static boolean isExactly(TokenIndex index, int position, byte[] bytes, int from, int to) {
    return index.startsWith(position, bytes, from, to) && index.lengthAt(position) == to - from;
  }

  private static TokenIndex index(List<byte[]> tokens) throws IOException {
    return read(packed(tokens), TokenIndex.sortedRanks(tokens.toArray(new byte[0][])));
  }

  private static TokenIndex read(byte[] packed, byte[] sorted) throws IOException {
    return TokenIndex.read(new ByteArrayInputStream(packed), new ByteArrayInputStream(sorted));
  }

  private static byte[] packed(List<byte[]> tokens) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PackedRanks.write(tokens, out);
    return out.toByteArray();
  }

  private static InputStream resource(String name) {
    InputStream in = TokenIndexTest.class.getResourceAsStream(name);
    assertThat(in).as(name + " (made by the build)").isNotNull();
    return in;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
