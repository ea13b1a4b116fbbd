package io.tollgate.hostile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Hostile variants of well-formed bodies: one to eight edits each, from byte flips to pieces of
 * JSON and SSE syntax, absurd numbers and malformed UTF-8 spliced in at any point.
 */
final class Mutations {

  /** What a hostile or broken provider, proxy or client may put anywhere in a body. */
  private static final List<byte[]> SPLICES = List.of(
      ascii("{"), ascii("}"), ascii("["), ascii("]"), ascii("\""), ascii(":"), ascii(","),
      ascii("\\"), ascii("\\u"), ascii("\\ud800"), ascii("\n"), ascii("\r\n"), ascii("\r"),
      ascii("\n\n"), ascii("data: "), ascii("data: [DONE]\n\n"), ascii("event: error\n"),
      ascii("retry: -1\n"), ascii(": comment\n"), ascii("null"), ascii("true"), ascii("-1"),
      ascii("1e999"), ascii("-0.0"), ascii("9223372036854775808"), ascii("-9223372036854775809"),
      ascii("\"usage\":{\"prompt_tokens\":-5,\"completion_tokens\":9223372036854775807}"),
      ascii("\"usage\":{\"input_tokens\":1e308,\"output_tokens\":\"12\"}"),
      ascii("\"max_tokens\":9223372036854775807"), ascii("\"n\":2147483647"),
      ascii("\"model\":" + "\"" + "x".repeat(4096) + "\""), ascii("[".repeat(2000)),
      ascii("{\"a\":".repeat(1000)), new byte[] {0}, new byte[] {(byte) 0xff, (byte) 0xfe},
      new byte[] {(byte) 0xc0, (byte) 0xaf}, new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
      new byte[] {(byte) 0xe2, (byte) 0x82}, new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf});

  private Mutations() {}

  /** {@code seed} with one to eight edits. */
  static Arbitrary<byte[]> of(byte[] seed) {
    return edit().list().ofMinSize(1).ofMaxSize(8).map(edits -> {
      byte[] body = seed;
      for (Edit edit : edits) {
        body = edit.applyTo(body);
      }
      return body;
    });
  }

  private static Arbitrary<Edit> edit() {
    Arbitrary<Double> at = Arbitraries.doubles().between(0, 1);
    Arbitrary<byte[]> junk = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(64);
    Arbitrary<byte[]> splice = Arbitraries.of(SPLICES);
    return Combinators.combine(Arbitraries.of(Kind.class), at, at, Arbitraries.oneOf(junk, splice))
        .as(Edit::new);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  enum Kind { FLIP, INSERT, REPLACE, DELETE, DUPLICATE, TRUNCATE }

  /** One edit; positions are fractions of the body's length, so any edit applies to any body. */
  record Edit(Kind kind, double from, double to, byte[] bytes) {

    byte[] applyTo(byte[] body) {
      int a = (int) (from * body.length);
      int b = Math.max(a, (int) (to * body.length));
      return switch (kind) {
        case FLIP -> {
          byte[] flipped = body.clone();
          if (a < flipped.length) {
            flipped[a] ^= (byte) (1 << (bytes[0] & 7));
          }
          yield flipped;
        }
        case INSERT -> splice(body, a, a, bytes);
        case REPLACE -> splice(body, a, b, bytes);
        case DELETE -> splice(body, a, b, new byte[0]);
        case DUPLICATE -> splice(body, b, b, Arrays.copyOfRange(body, a, b));
        case TRUNCATE -> Arrays.copyOf(body, a);
      };
    }

    private static byte[] splice(byte[] body, int from, int to, byte[] with) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + with.length);
      out.write(body, 0, from);
      out.write(with, 0, with.length);
      out.write(body, to, body.length - to);
      return out.toByteArray();
    }

    @Override
    public String toString() {
      return kind + "@" + from + ".." + to + " " + bytes.length + " bytes";
    }
  }
}
