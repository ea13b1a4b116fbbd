package io.tollgate.agent.it.app;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A chat request of exactly {@code size} bytes, made as it is read, never held: a fixed start
 * naming the model and {@code max_tokens}, prose in one user message, a fixed end. The same size
 * always gives the same bytes, so a test recomputes what the app sent.
 */
public final class GeneratedChat extends InputStream {

  public static final String MODEL = "gpt-4o";
  public static final int MAX_TOKENS = 300;
  private static final byte[] START = ("{\"model\":\"" + MODEL + "\",\"max_tokens\":" + MAX_TOKENS
      + ",\"messages\":[{\"role\":\"user\",\"content\":\"").getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PROSE = "The quick brown fox jumps over the lazy dog, 0123456789 times. "
      .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = "\"}]}".getBytes(StandardCharsets.US_ASCII);

  private final long size;
  private long position;

  public GeneratedChat(long size) {
    if (size < START.length + END.length) {
      throw new IllegalArgumentException("a chat request takes at least " + (START.length + END.length) + " bytes");
    }
    this.size = size;
  }

  @Override
  public int read() {
    if (position >= size) {
      return -1;
    }
    return byteAt(position++) & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (position >= size) {
      return -1;
    }
    int n = (int) Math.min(len, size - position);
    for (int i = 0; i < n; i++) {
      b[off + i] = byteAt(position++);
    }
    return n;
  }

  private byte byteAt(long at) {
    if (at < START.length) {
      return START[(int) at];
    }
    long fromEnd = size - at;
    if (fromEnd <= END.length) {
      return END[END.length - (int) fromEnd];
    }
    return PROSE[(int) ((at - START.length) % PROSE.length)];
  }
}
