package io.tollgate.llm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Test resources under io/tollgate/llm, and ways of feeding bytes to a tap. */
final class Fixtures {

  private Fixtures() {}

  static byte[] bytes(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource io/tollgate/llm/" + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String text(String name) {
    return new String(bytes(name), StandardCharsets.UTF_8);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Feeds all bytes at once and ends the body. */
  static Usage whole(UsageTap tap, byte[] body) {
    tap.onBytes(body, 0, body.length);
    tap.onEnd();
    return tap.result();
  }

  /** Feeds the bytes in two calls, split at {@code at}, from a copy the tap cannot keep. */
  static Usage splitAt(UsageTap tap, byte[] body, int at) {
    byte[] scratch = body.clone();
    tap.onBytes(scratch, 0, at);
    java.util.Arrays.fill(scratch, 0, at, (byte) '#'); // a tap that kept a reference would see this
    tap.onBytes(scratch, at, body.length - at);
    tap.onEnd();
    return tap.result();
  }

  /** Feeds the bytes in random chunks of 1 to {@code maxChunk} bytes, each in a reused buffer. */
  static Usage randomChunks(UsageTap tap, byte[] body, long seed, int maxChunk) {
    Random random = new Random(seed);
    byte[] buffer = new byte[maxChunk + 8];
    int i = 0;
    while (i < body.length) {
      int n = Math.min(body.length - i, 1 + random.nextInt(maxChunk));
      int off = random.nextInt(8);
      System.arraycopy(body, i, buffer, off, n);
      tap.onBytes(buffer, off, n);
      java.util.Arrays.fill(buffer, (byte) 0x7F);
      i += n;
    }
    tap.onEnd();
    return tap.result();
  }
}
