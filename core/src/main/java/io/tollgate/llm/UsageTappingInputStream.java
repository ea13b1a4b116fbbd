package io.tollgate.llm;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * An {@link InputStream} that hands every byte through unchanged and shows each one, once, to a
 * {@link UsageTap}. When the stream ends (end of data, a read error, or {@code close()}), the tap
 * is told and {@code onComplete} receives the usage exactly once.
 *
 * <p>{@code mark}/{@code reset} work as on the wrapped stream; bytes read again after a reset are
 * not shown to the tap twice. {@code skip} reads the skipped bytes so the tap still sees them.
 */
public final class UsageTappingInputStream extends FilterInputStream {

  private static final System.Logger LOG = System.getLogger(UsageTappingInputStream.class.getName());
  private static final Consumer<Usage> NOTHING = usage -> { };

  private final UsageTap tap;
  private final Consumer<Usage> onComplete;
  private final AtomicBoolean finished = new AtomicBoolean();
  private final byte[] single = new byte[1];
  private long position;
  private long shownUpTo;
  private long markPosition = -1;

  private UsageTappingInputStream(InputStream in, UsageTap tap, Consumer<Usage> onComplete) {
    super(Objects.requireNonNull(in, "in"));
    this.tap = Objects.requireNonNull(tap, "tap");
    this.onComplete = Objects.requireNonNull(onComplete, "onComplete");
  }

  public static UsageTappingInputStream of(InputStream in, UsageTap tap) {
    return new UsageTappingInputStream(in, tap, NOTHING);
  }

  /** As {@link #of(InputStream, UsageTap)}, calling {@code onComplete} once when the body ends. */
  public static UsageTappingInputStream of(InputStream in, UsageTap tap, Consumer<Usage> onComplete) {
    return new UsageTappingInputStream(in, tap, onComplete);
  }

  /** The usage as known now; final once the stream ended or was closed. */
  public Usage usage() {
    return tap.result();
  }

  @Override
  public int read() throws IOException {
    int b;
    try {
      b = in.read();
    } catch (IOException | RuntimeException e) {
      fail(e);
      throw e;
    }
    if (b < 0) {
      finish();
    } else {
      single[0] = (byte) b;
      show(single, 0, 1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n;
    try {
      n = in.read(b, off, len);
    } catch (IOException | RuntimeException e) {
      fail(e);
      throw e;
    }
    if (n < 0) {
      finish();
    } else if (n > 0) {
      show(b, off, n);
    }
    return n;
  }

  /** Reads and discards, so that the tap sees the skipped bytes too. */
  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    byte[] scratch = new byte[(int) Math.min(n, 8192)];
    long skipped = 0;
    while (skipped < n) {
      int r = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
      if (r < 0) {
        break;
      }
      skipped += r;
    }
    return skipped;
  }

  @Override
  public synchronized void mark(int readlimit) {
    in.mark(readlimit);
    markPosition = position;
  }

  @Override
  public synchronized void reset() throws IOException {
    in.reset();
    if (markPosition >= 0) {
      position = markPosition;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      in.close();
    } finally {
      finish();
    }
  }

  private void show(byte[] b, int off, int n) {
    long end = position + n;
    if (end > shownUpTo) {
      // After a reset, the start of this read was already shown; only the new part is.
      int fresh = (int) (end - Math.max(position, shownUpTo));
      tap.onBytes(b, off + n - fresh, fresh);
      shownUpTo = end;
    }
    position = end;
  }

  private void fail(Throwable error) {
    if (finished.compareAndSet(false, true)) {
      tap.onError(error);
      complete();
    }
  }

  private void finish() {
    if (finished.compareAndSet(false, true)) {
      tap.onEnd();
      complete();
    }
  }

  private void complete() {
    try {
      onComplete.accept(tap.result());
    } catch (RuntimeException e) {
      // The app is reading its response; a failing settle must not become its failure.
      LOG.log(Level.WARNING, "Tollgate: handling the usage of a response failed", e);
    }
  }
}
