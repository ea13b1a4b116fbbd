package io.tollgate.agent;

import io.tollgate.router.StreamedBody;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;

/**
 * An app's request body read up to {@code tokens.max-buffered-body}: whole when it ends within
 * the bound; else its first bound + 1 bytes are held (the model and output cap are read from
 * them) and the rest stays unread in the app's stream, to be sent from there once, every byte
 * counted into the call's {@link StreamedBody} as it passes. So at most bound + 1 bytes of it are
 * ever held.
 */
public final class BoundedBody {

  private final byte[] held;
  private final InputStream rest;
  private final StreamedBody streamed;
  private boolean taken;

  private BoundedBody(byte[] held, InputStream rest, StreamedBody streamed) {
    this.held = held;
    this.rest = rest;
    this.streamed = streamed;
  }

  /**
   * Reads {@code in} (the app's body) up to {@code bound} + 1 bytes; a body that ends within the
   * bound is read to its end and {@code in} closed.
   *
   * @param declaredLength the body's length as the app declared it, negative when it did not
   * @throws IOException what reading the app's body threw: the app's own failure
   */
  public static BoundedBody read(InputStream in, int bound, long declaredLength) throws IOException {
    byte[] held;
    try {
      held = in.readNBytes(bound + 1);
    } catch (IOException | RuntimeException | Error e) {
      closeQuietly(in);
      throw e;
    }
    if (held.length <= bound) {
      closeQuietly(in);
      return new BoundedBody(held, null, null);
    }
    StreamedBody streamed = StreamedBody.ofLength(declaredLength);
    streamed.passed(held.length);
    return new BoundedBody(held, in, streamed);
  }

  /** True when the body ended within the bound: {@link #held()} is all of it. */
  public boolean whole() {
    return rest == null;
  }

  /** The bytes held: the whole body, or its first bytes. */
  public byte[] held() {
    return held;
  }

  /** For a body not held whole: its length as declared or counted; null for a whole one. */
  public StreamedBody streamed() {
    return streamed;
  }

  /**
   * The body as the client sends it, exactly the app's bytes: the held ones, then the rest from
   * the app's stream, counted as they are read. A body not held whole is sent once.
   *
   * @throws IOException when it was taken already
   */
  public synchronized InputStream asSent() throws IOException {
    if (whole()) {
      return new ByteArrayInputStream(held);
    }
    if (taken) {
      throw new IOException("a request body larger than tokens.max-buffered-body is sent once");
    }
    taken = true;
    return new SequenceInputStream(new ByteArrayInputStream(held), new Counted(rest, streamed));
  }

  /** The call will not send the body: the rest of the app's stream is closed unread. */
  public void abandon() {
    if (rest != null) {
      closeQuietly(rest);
    }
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException | RuntimeException e) {
      // the app's stream: nothing more to read from it either way
    }
  }

  /** Counts each byte read into the call's {@link StreamedBody}. */
  private static final class Counted extends FilterInputStream {
    private final StreamedBody streamed;

    Counted(InputStream in, StreamedBody streamed) {
      super(in);
      this.streamed = streamed;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        streamed.passed(1);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      streamed.passed(n);
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      streamed.passed(skipped);
      return skipped;
    }
  }
}
