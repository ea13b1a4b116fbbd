package io.tollgate.llm.internal;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * An encoding's mergeable ranks in a form that loads fast: the token bytes of rank 0, 1, 2, ... one
 * after the other, each after its length. jtokkit ships them as tiktoken text (a base64 token and
 * its rank per line); decoding 200,000 lines of it is most of the half second of CPU that loading
 * {@code o200k_base} takes, and most of what the JIT compiles for it. The build packs jtokkit's
 * file once ({@link #main}, run by core's pom at {@code process-classes}); a JVM starting then reads
 * the packed bytes instead (docs/benchmarks.md, "Tokenizer load").
 *
 * <pre>
 * "TGR1" | count (4 bytes, big-endian) | count × (length (1 byte, 1-255) | token bytes)
 * </pre>
 */
public final class PackedRanks {

  private static final byte[] MAGIC = "TGR1".getBytes(StandardCharsets.US_ASCII);
  private static final int MAX_TOKEN_LENGTH = 255;

  private PackedRanks() {}

  /**
   * Packs a tiktoken file: {@code PackedRanks TIKTOKEN_RESOURCE OUTPUT_FILE [SORTED_OUTPUT_FILE]},
   * the resource read from this class's class path (jtokkit's jar); the third file, when named,
   * gets the ranks in the order of their tokens' bytes ({@link TokenIndex}).
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 2 && args.length != 3) {
      throw new IllegalArgumentException(
          "usage: PackedRanks TIKTOKEN_RESOURCE OUTPUT_FILE [SORTED_OUTPUT_FILE]");
    }
    List<byte[]> ranks;
    try (InputStream tiktoken = PackedRanks.class.getResourceAsStream(args[0])) {
      if (tiktoken == null) {
        throw new IOException(args[0] + " is not on the class path");
      }
      ranks = fromTiktoken(tiktoken);
    }
    Path output = Path.of(args[1]);
    Files.createDirectories(output.toAbsolutePath().getParent());
    try (OutputStream out = Files.newOutputStream(output)) {
      write(ranks, out);
    }
    if (args.length == 3) {
      Files.write(Path.of(args[2]), TokenIndex.sortedRanks(ranks.toArray(new byte[0][])));
    }
  }

  /**
   * The tokens of a tiktoken file by rank. Ranks must run 0, 1, 2, ... in the file's order, as in
   * every encoding jtokkit ships; anything else is refused rather than packed wrong.
   */
  static List<byte[]> fromTiktoken(InputStream tiktoken) throws IOException {
    List<byte[]> tokens = new ArrayList<>();
    BufferedReader lines = new BufferedReader(new InputStreamReader(tiktoken, StandardCharsets.UTF_8));
    Base64.Decoder base64 = Base64.getDecoder();
    for (String line; (line = lines.readLine()) != null; ) {
      if (line.isEmpty()) {
        continue;
      }
      int space = line.indexOf(' ');
      if (space < 0 || Integer.parseInt(line.substring(space + 1)) != tokens.size()) {
        throw new IOException("line " + (tokens.size() + 1) + " is not \"<base64> "
            + tokens.size() + "\": " + line);
      }
      tokens.add(base64.decode(line.substring(0, space)));
    }
    return tokens;
  }

  static void write(List<byte[]> tokens, OutputStream out) throws IOException {
    ByteArrayOutputStream packed = new ByteArrayOutputStream(tokens.size() * 9);
    packed.write(MAGIC);
    packed.write(new byte[] {(byte) (tokens.size() >>> 24), (byte) (tokens.size() >>> 16),
        (byte) (tokens.size() >>> 8), (byte) tokens.size()});
    for (int rank = 0; rank < tokens.size(); rank++) {
      byte[] token = tokens.get(rank);
      if (token.length == 0 || token.length > MAX_TOKEN_LENGTH) {
        throw new IOException("token of rank " + rank + " is " + token.length
            + " bytes long; a packed token is 1 to " + MAX_TOKEN_LENGTH);
      }
      packed.write(token.length);
      packed.write(token);
    }
    packed.writeTo(out);
  }

  /**
   * The mergeable ranks as jtokkit takes them (token bytes to rank), in rank order, unmodifiable
   * ({@link RanksInOrder}).
   *
   * @throws IOException when the bytes are not a whole packed file
   */
  public static Map<byte[], Integer> read(InputStream in) throws IOException {
    byte[] all = in.readAllBytes();
    int[] starts = tokenStarts(all);
    byte[][] tokens = new byte[starts.length][];
    for (int rank = 0; rank < starts.length; rank++) {
      tokens[rank] = Arrays.copyOfRange(all, starts[rank], starts[rank] + tokenLength(all, starts[rank]));
    }
    return new RanksInOrder(tokens);
  }

  /** The length of the token whose bytes start at {@code start} of a packed file (the byte before). */
  static int tokenLength(byte[] packed, int start) {
    return packed[start - 1] & 0xff;
  }

  /**
   * Where each rank's token bytes start in a whole packed file (see {@link #tokenLength}).
   *
   * @throws IOException when the bytes are not a whole packed file
   */
  static int[] tokenStarts(byte[] all) throws IOException {
    if (all.length < 8 || !Arrays.equals(all, 0, 4, MAGIC, 0, 4)) {
      throw new IOException("not packed ranks (no TGR1 header)");
    }
    int count = ((all[4] & 0xff) << 24) | ((all[5] & 0xff) << 16) | ((all[6] & 0xff) << 8)
        | (all[7] & 0xff);
    if (count < 0 || count > (all.length - 8) / 2) { // each token takes 2 bytes at least
      throw new IOException("packed ranks claim " + Integer.toUnsignedString(count) + " tokens in "
          + all.length + " bytes");
    }
    int[] starts = new int[count];
    int at = 8;
    for (int rank = 0; rank < count; rank++) {
      int length = at < all.length ? all[at++] & 0xff : 0;
      if (length == 0 || at + length > all.length) {
        throw new IOException("packed ranks cut short at rank " + rank + " of " + count);
      }
      starts[rank] = at;
      at += length;
    }
    if (at != all.length) {
      throw new IOException("packed ranks hold " + (all.length - at) + " bytes after rank " + count);
    }
    return starts;
  }
}
