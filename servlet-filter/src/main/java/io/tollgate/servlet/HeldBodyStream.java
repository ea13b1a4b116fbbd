package io.tollgate.servlet;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;
import java.util.Objects;

/**
 * The request body as the app reads it after the filter has held its first bytes: those bytes,
 * then (when the body was larger than what was held) the rest straight from the container's
 * stream. Blocking and non-blocking reads both see exactly the bytes the client sent.
 */
final class HeldBodyStream extends ServletInputStream {

  private final byte[] held;
  private final int length;
  /** The rest of the body, or null when {@link #held} is all of it. */
  private final ServletInputStream rest;
  private final InboundRequest request;
  private int position;
  /** Bytes read from {@link #rest}: read by the filter's settle from another thread. */
  private volatile long restRead;
  /** Read calls made, for the delivery loop: an app that stops reading is not called again. */
  private long reads;
  private ReadListener listener;

  HeldBodyStream(byte[] held, int length, ServletInputStream rest, InboundRequest request) {
    this.held = held;
    this.length = length;
    this.rest = rest;
    this.request = request;
  }

  @Override
  public int read() throws IOException {
    reads++;
    if (position < length) {
      return held[position++] & 0xff;
    }
    if (rest == null) {
      return -1;
    }
    int b = rest.read();
    if (b >= 0) {
      restRead++;
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    reads++;
    if (len == 0) {
      return 0;
    }
    if (position < length) {
      int n = Math.min(len, length - position);
      System.arraycopy(held, position, b, off, n);
      position += n;
      return n;
    }
    if (rest == null) {
      return -1;
    }
    int n = rest.read(b, off, len);
    if (n > 0) {
      restRead += n;
    }
    return n;
  }

  @Override
  public int available() throws IOException {
    long available = (long) (length - position) + (rest == null ? 0 : rest.available());
    return (int) Math.min(Integer.MAX_VALUE, available);
  }

  @Override
  public boolean isFinished() {
    return position >= length && (rest == null || rest.isFinished());
  }

  /**
   * Always true: the held bytes are in memory, and the rest (if any) is read by blocking reads on
   * the container thread that delivers to the app's {@link ReadListener}.
   */
  @Override
  public boolean isReady() {
    return true;
  }

  /**
   * Delivers the body on a container thread ({@code AsyncContext.start}) with blocking reads. The
   * container's own non-blocking input is never used: once the filter has read from the stream, a
   * switch to non-blocking reads is not dependable (Tomcat 11 reorders the chunks of a chunked
   * body that was partly read before the switch).
   */
  @Override
  public void setReadListener(ReadListener readListener) {
    Objects.requireNonNull(readListener, "readListener");
    if (listener != null) {
      throw new IllegalStateException("a ReadListener is already set");
    }
    if (!request.isAsyncStarted()) {
      throw new IllegalStateException("non-blocking reads need an asynchronous request (startAsync)");
    }
    listener = readListener;
    request.getAsyncContext().start(this::deliver);
  }

  private void deliver() {
    try {
      while (!isFinished()) {
        long before = reads;
        listener.onDataAvailable();
        if (reads == before) {
          return; // the app stopped reading; isReady() stays true, so it reads when it wants
        }
      }
      listener.onAllDataRead();
    } catch (Throwable t) {
      listener.onError(t);
    }
  }

  @Override
  public void close() throws IOException {
    if (rest != null) {
      rest.close();
    }
  }

  /** Bytes held in memory. */
  int heldBytes() {
    return length;
  }

  /** Bytes the app has read past the held ones. */
  long restRead() {
    return restRead;
  }
}
