package io.tollgate.spring.boot;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;

/**
 * A chat request of exactly {@code size} bytes, made as it is published: a start naming the model
 * and {@code max_tokens}, prose in one user message, a fixed end. The same size always gives the
 * same bytes, so a test recomputes what was sent.
 */
final class GeneratedChat {

  static final String MODEL = "gpt-4o";
  static final int MAX_TOKENS = 300;
  private static final byte[] START = ("{\"model\":\"" + MODEL + "\",\"max_tokens\":" + MAX_TOKENS
      + ",\"messages\":[{\"role\":\"user\",\"content\":\"").getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PROSE = "The quick brown fox jumps over the lazy dog, 0123456789 times. "
      .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = "\"}]}".getBytes(StandardCharsets.US_ASCII);
  private static final int CHUNK = 8192;

  private GeneratedChat() {}

  /** The body in buffers of 8 KiB, each made when it is asked for. */
  static Flux<DataBuffer> flux(long size) {
    return Flux.generate(() -> 0L, (position, sink) -> {
      if (position >= size) {
        sink.complete();
        return position;
      }
      int n = (int) Math.min(CHUNK, size - position);
      sink.next(DefaultDataBufferFactory.sharedInstance.wrap(chunk(size, position, n)));
      return position + n;
    });
  }

  /** The whole body in one array. */
  static byte[] bytes(int size) {
    return chunk(size, 0, size);
  }

  static String sha256(long size) {
    MessageDigest digest = digest();
    for (long position = 0; position < size; position += CHUNK) {
      digest.update(chunk(size, position, (int) Math.min(CHUNK, size - position)));
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(digest().digest(bytes));
  }

  private static byte[] chunk(long size, long from, int n) {
    byte[] chunk = new byte[n];
    for (int i = 0; i < n; i++) {
      long at = from + i;
      long fromEnd = size - at;
      chunk[i] = at < START.length ? START[(int) at]
          : fromEnd <= END.length ? END[END.length - (int) fromEnd]
          : PROSE[(int) ((at - START.length) % PROSE.length)];
    }
    return chunk;
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
