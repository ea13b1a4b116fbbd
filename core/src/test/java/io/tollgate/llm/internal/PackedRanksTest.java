package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.api.EncodingType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The packed form of an encoding's ranks: what the build writes and what a JVM reads back. */
class PackedRanksTest {

  @ParameterizedTest
  @CsvSource({"O200K_BASE, 199998", "CL100K_BASE, 100256"})
  void theBuildPackedEveryRankOfJtokkitsEncodingInOrder(EncodingType type, int ranks)
      throws IOException {
    List<byte[]> fromJtokkit;
    try (InputStream tiktoken = resource("/com/knuddels/jtokkit/" + type.getName() + ".tiktoken")) {
      fromJtokkit = PackedRanks.fromTiktoken(tiktoken);
    }
    Map<byte[], Integer> packed;
    try (InputStream in = resource(EncodingLoader.packedRanks(type))) {
      packed = PackedRanks.read(in);
    }

    assertThat(fromJtokkit).hasSize(ranks);
    assertThat(packed).hasSize(ranks);
    int rank = 0;
    for (Map.Entry<byte[], Integer> entry : packed.entrySet()) {
      assertThat(entry.getValue()).isEqualTo(rank);
      assertThat(entry.getKey()).as("token of rank %d", rank).isEqualTo(fromJtokkit.get(rank));
      rank++;
    }
    assertThat(new String(fromJtokkit.get(0), StandardCharsets.UTF_8)).isEqualTo("!");
  }

  @Test
  void readsBackWhatItWrote() throws IOException {
    List<byte[]> tokens = List.of(bytes("a"), bytes("hello"), new byte[] {(byte) 0xe3, (byte) 0x81},
        bytes("x".repeat(255)));

    Map<byte[], Integer> ranks = PackedRanks.read(new ByteArrayInputStream(packed(tokens)));

    List<String> read = new ArrayList<>();
    ranks.forEach((token, rank) -> read.add(rank + ":" + Arrays.toString(token)));
    assertThat(read).containsExactly("0:" + Arrays.toString(bytes("a")),
        "1:" + Arrays.toString(bytes("hello")), "2:[-29, -127]",
        "3:" + Arrays.toString(bytes("x".repeat(255))));
  }

  @Test
  void refusesATiktokenFileWhoseRanksDoNotRunInOrder() {
    byte[] file = "IQ== 0\nIg== 2\n".getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> PackedRanks.fromTiktoken(new ByteArrayInputStream(file)))
        .isInstanceOf(IOException.class)
        .hasMessage("line 2 is not \"<base64> 1\": Ig== 2");
  }

  @Test
  void refusesATokenItCannotPack() {
    assertThatThrownBy(() -> packed(List.of(bytes("a"), bytes("y".repeat(256)))))
        .isInstanceOf(IOException.class)
        .hasMessage("token of rank 1 is 256 bytes long; a packed token is 1 to 255");
  }

  @Test
  void refusesDamagedBytesRatherThanLoadingPartOfAnEncoding() throws IOException {
    byte[] whole = packed(List.of(bytes("ab"), bytes("cd")));

    assertThatThrownBy(() -> PackedRanks.read(new ByteArrayInputStream(Arrays.copyOf(whole, whole.length - 1))))
        .hasMessage("packed ranks cut short at rank 1 of 2");
    assertThatThrownBy(() -> PackedRanks.read(new ByteArrayInputStream(Arrays.copyOf(whole, whole.length + 2))))
        .hasMessage("packed ranks hold 2 bytes after rank 2");
    assertThatThrownBy(() -> PackedRanks.read(new ByteArrayInputStream(bytes("IQ== 0\nIg== 1\n"))))
        .hasMessage("not packed ranks (no TGR1 header)");
  }

  @Test
  void refusesACountTheBytesCannotHoldBeforeMakingRoomForIt() throws IOException {
    byte[] whole = packed(List.of(bytes("ab"), bytes("cd")));
    byte[] claimsTooMany = whole.clone();
    claimsTooMany[7] = 4; // four tokens claimed: 8 bytes at least, 6 follow the header
    byte[] claimsAll = whole.clone();
    Arrays.fill(claimsAll, 4, 8, (byte) 0xff);

    assertThatThrownBy(() -> PackedRanks.read(new ByteArrayInputStream(claimsTooMany)))
        .hasMessage("packed ranks claim 4 tokens in 14 bytes");
    assertThatThrownBy(() -> PackedRanks.read(new ByteArrayInputStream(claimsAll)))
        .hasMessage("packed ranks claim 4294967295 tokens in 14 bytes");
  }

  private static byte[] packed(List<byte[]> tokens) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PackedRanks.write(tokens, out);
    return out.toByteArray();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static InputStream resource(String name) {
    InputStream in = PackedRanksTest.class.getResourceAsStream(name);
    assertThat(in).as(name).isNotNull();
    return in;
  }
}
