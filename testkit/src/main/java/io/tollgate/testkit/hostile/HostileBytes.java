package io.tollgate.testkit.hostile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Hostile variants of well-formed bodies: one to eight edits each, from byte flips to pieces of
 * JSON and SSE syntax, absurd numbers and malformed UTF-8 spliced in at any point. The same
 * {@link Random} seed gives the same variants.
 *
 * <pre>{@code
 * Random random = new Random(26);
 * byte[] hostile = HostileBytes.mutate(wellFormed, random);
 * }</pre>
 */
public final class HostileBytes {

  /** What a hostile or broken provider, proxy or client may put anywhere in a body. */
  private static final List<byte[]> SPLICES = List.of(
      utf8("{"), utf8("}"), utf8("["), utf8("]"), utf8("\""), utf8(":"), utf8(","),
      utf8("\\"), utf8("\\u"), utf8("\\ud800"), utf8("\n"), utf8("\r\n"), utf8("\r"),
      utf8("\n\n"), utf8("data: "), utf8("data: [DONE]\n\n"), utf8("event: error\n"),
      utf8("retry: -1\n"), utf8(": comment\n"), utf8("null"), utf8("true"), utf8("-1"),
      utf8("1e999"), utf8("-0.0"), utf8("9223372036854775808"), utf8("-9223372036854775809"),
      utf8("\"usage\":{\"prompt_tokens\":-5,\"completion_tokens\":9223372036854775807}"),
      utf8("\"usage\":{\"input_tokens\":1e308,\"output_tokens\":\"12\"}"),
      utf8("\"max_tokens\":9223372036854775807"), utf8("\"n\":2147483647"),
      utf8("\"model\":\"" + "x".repeat(4096) + "\""), utf8("[".repeat(2000)),
      utf8("{\"a\":".repeat(1000)), new byte[] {0}, new byte[] {(byte) 0xff, (byte) 0xfe},
      new byte[] {(byte) 0xc0, (byte) 0xaf}, new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
      new byte[] {(byte) 0xe2, (byte) 0x82}, new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf});

  private enum Edit { FLIP, INSERT, REPLACE, DELETE, DUPLICATE, TRUNCATE }

  private HostileBytes() {}

  /** {@code wellFormed} with one to eight edits drawn from {@code random}; the input is not changed. */
  public static byte[] mutate(byte[] wellFormed, Random random) {
    byte[] body = wellFormed;
    for (int edits = 1 + random.nextInt(8); edits > 0; edits--) {
      body = edit(body, random);
    }
    return body;
  }

  /** As {@link #mutate}, as text: malformed UTF-8 is decoded to U+FFFD, as a server sending a string would. */
  public static String mutateText(String wellFormed, Random random) {
    return new String(mutate(utf8(wellFormed), random), StandardCharsets.UTF_8);
  }

  private static byte[] edit(byte[] body, Random random) {
    Edit edit = Edit.values()[random.nextInt(Edit.values().length)];
    int a = random.nextInt(body.length + 1);
    int b = a + random.nextInt(body.length - a + 1);
    return switch (edit) {
      case FLIP -> {
        byte[] flipped = body.clone();
        if (a < flipped.length) {
          flipped[a] ^= (byte) (1 << random.nextInt(8));
        }
        yield flipped;
      }
      case INSERT -> splice(body, a, a, splice(random));
      case REPLACE -> splice(body, a, b, splice(random));
      case DELETE -> splice(body, a, b, new byte[0]);
      case DUPLICATE -> splice(body, b, b, Arrays.copyOfRange(body, a, b));
      case TRUNCATE -> Arrays.copyOf(body, a);
    };
  }

  /** Known-hostile syntax half the time, random bytes otherwise. */
  private static byte[] splice(Random random) {
    if (random.nextBoolean()) {
      return SPLICES.get(random.nextInt(SPLICES.size()));
    }
    byte[] junk = new byte[1 + random.nextInt(64)];
    random.nextBytes(junk);
    return junk;
  }

  private static byte[] splice(byte[] body, int from, int to, byte[] with) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + with.length);
    out.write(body, 0, from);
    out.write(with, 0, with.length);
    out.write(body, to, body.length - to);
    return out.toByteArray();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
