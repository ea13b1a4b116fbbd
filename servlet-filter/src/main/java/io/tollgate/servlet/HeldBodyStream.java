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
  private ReadListener listener;

  HeldBodyStream(byte[] held, int length, ServletInputStream rest, InboundRequest request) {
    this.held = held;
    this.length = length;
    this.rest = rest;
    this.request = request;
  }

  @Override
  public int read() throws IOException {
    if (position < length) {
      return held[position++] & 0xff;
    }
    return rest == null ? -1 : rest.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (position < length) {
      int n = Math.min(len, length - position);
      System.arraycopy(held, position, b, off, n);
      position += n;
      return n;
    }
    return rest == null ? -1 : rest.read(b, off, len);
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

  @Override
  public boolean isReady() {
    return position < length || rest == null || rest.isReady();
  }

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
    if (rest == null) {
      // Everything is in memory: hand it over on a container thread, as the container would.
      request.getAsyncContext().start(this::deliverHeld);
    } else {
      rest.setReadListener(new ReadListener() {
        @Override
        public void onDataAvailable() throws IOException {
          readListener.onDataAvailable();
        }

        @Override
        public void onAllDataRead() throws IOException {
          if (position < length) {
            readListener.onDataAvailable();
          }
          readListener.onAllDataRead();
        }

        @Override
        public void onError(Throwable t) {
          readListener.onError(t);
        }
      });
    }
  }

  private void deliverHeld() {
    try {
      while (!isFinished()) {
        int before = position;
        listener.onDataAvailable();
        if (position == before) {
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
}
