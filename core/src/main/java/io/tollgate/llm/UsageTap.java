package io.tollgate.llm;

import java.nio.ByteBuffer;

/**
 * Watches a response body go by and works out its {@link Usage}.
 *
 * <p>A tap only reads copies of what it is given: it never changes, delays or keeps the caller's
 * bytes, never holds the whole body (only a bounded sample of the generated text, for an
 * estimate), accepts any split of the bytes (a multi-byte character or a CRLF may straddle two
 * calls), and never throws: a body it cannot read gives {@link UsageSource#UNKNOWN}. A tap serves
 * one response; its calls are serialized, so it may be ended or queried from another thread.
 */
public interface UsageTap {

  /** The next {@code len} bytes of the body, read from {@code b} at {@code off}. */
  void onBytes(byte[] b, int off, int len);

  /**
   * The next bytes of the body, from the buffer's position to its limit; the buffer's position,
   * limit and content are left as they were.
   */
  default void onBytes(ByteBuffer buffer) {
    if (buffer == null || !buffer.hasRemaining()) {
      return;
    }
    if (buffer.hasArray()) {
      onBytes(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
      return;
    }
    ByteBuffer view = buffer.duplicate();
    byte[] chunk = new byte[Math.min(view.remaining(), 8192)];
    while (view.hasRemaining()) {
      int n = Math.min(chunk.length, view.remaining());
      view.get(chunk, 0, n);
      onBytes(chunk, 0, n);
    }
  }

  /** The body ended (completely, or because the app stopped reading and closed it). */
  void onEnd();

  /** Reading the body failed; what was seen so far still counts. */
  void onError(Throwable error);

  /**
   * The usage as known now: final once {@link #onEnd()} or {@link #onError(Throwable)} was called.
   * Before that, the figures seen so far (for a stream cut short by the app).
   */
  Usage result();
}
