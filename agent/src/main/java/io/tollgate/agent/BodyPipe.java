package io.tollgate.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A request body that its client library writes out (an OkHttp {@code RequestBody}, an Apache
 * entity with no stream of its own) turned into one Tollgate can read a little of and then pass
 * on: the body's own {@code writeTo} runs once, on a daemon thread of its own, into a pipe of
 * {@value #CAPACITY} bytes that it fills only as fast as the reader empties it. So a body of any
 * size is never in memory beyond the bytes the reader keeps and the pipe.
 *
 * <p>What the writer throws, the reader throws where the body ends early, as the client would
 * have had it from {@code writeTo}. Closing the reader makes the writer's next write fail, which
 * ends its thread: a body that will not be sent.
 */
public final class BodyPipe {

  /** A body's own way to write itself out. */
  public interface Writer {
    void writeTo(OutputStream out) throws IOException;
  }

  static final int CAPACITY = 64 * 1024;
  private static final AtomicInteger NUMBER = new AtomicInteger();

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition readable = lock.newCondition();
  private final Condition writable = lock.newCondition();
  private final byte[] buffer = new byte[CAPACITY];
  // guarded by lock
  private int start;
  private int count;
  private boolean written;
  private Throwable failure;
  private boolean readerClosed;

  private BodyPipe() {}

  /**
   * Starts {@code writer} on a thread of its own and returns what it writes, to be read once.
   * The thread has the caller's context class loader, none of its inheritable thread locals.
   */
  public static InputStream start(Writer writer) {
    Objects.requireNonNull(writer, "writer");
    BodyPipe pipe = new BodyPipe();
    Thread thread = new Thread(null, () -> pipe.run(writer),
        "tollgate-body-writer-" + NUMBER.incrementAndGet(), 0, false);
    thread.setDaemon(true);
    thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
    thread.start();
    return pipe.new Reader();
  }

  private void run(Writer writer) {
    Throwable failed = null;
    try (OutputStream out = new Sink()) {
      writer.writeTo(out);
    } catch (Throwable t) {
      failed = t;
    }
    lock.lock();
    try {
      written = true;
      failure = failed;
      readable.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private final class Sink extends OutputStream {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      while (len > 0) {
        lock.lock();
        try {
          while (count == CAPACITY && !readerClosed) {
            awaitOn(writable);
          }
          if (readerClosed) {
            throw new IOException("the request body is no longer read");
          }
          int end = (start + count) % CAPACITY;
          int n = Math.min(len, Math.min(CAPACITY - count, CAPACITY - end));
          System.arraycopy(b, off, buffer, end, n);
          count += n;
          off += n;
          len -= n;
          readable.signalAll();
        } finally {
          lock.unlock();
        }
      }
    }
  }

  private final class Reader extends InputStream {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      lock.lock();
      try {
        while (count == 0 && !written && !readerClosed) {
          awaitOn(readable);
        }
        if (readerClosed) {
          throw new IOException("closed");
        }
        if (count == 0) {
          if (failure != null) {
            rethrow(failure);
          }
          return -1;
        }
        int n = Math.min(len, Math.min(count, CAPACITY - start));
        System.arraycopy(buffer, start, b, off, n);
        start = (start + n) % CAPACITY;
        count -= n;
        writable.signalAll();
        return n;
      } finally {
        lock.unlock();
      }
    }

    @Override
    public int available() {
      lock.lock();
      try {
        return count;
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void close() {
      lock.lock();
      try {
        readerClosed = true;
        writable.signalAll();
        readable.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  private static void awaitOn(Condition condition) throws InterruptedIOException {
    try {
      condition.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted = new InterruptedIOException("interrupted while streaming a request body");
      interrupted.initCause(e);
      throw interrupted;
    }
  }

  /** The writer's own failure, as it threw it. */
  private static void rethrow(Throwable failure) throws IOException {
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    throw new IOException(failure);
  }
}
