package io.tollgate.agent.it.app;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
import org.apache.hc.core5.http.nio.DataStreamChannel;

/**
 * An app's streamed request body: JSON produced in three pieces, one per {@code produce} call, of
 * unknown length (sent chunked) unless made {@link #declaringItsLength}, and not repeatable.
 * Counts what the client asks of it. Used by {@link ApacheAsync5App} in its own JVM and by the
 * helpers' tests in the test's.
 */
public final class ChunkedJsonProducer implements AsyncEntityProducer {

  private final AtomicInteger produced = new AtomicInteger();
  private final AtomicInteger released = new AtomicInteger();
  private final byte[][] pieces;
  private final long declaredLength;
  private int next;

  public ChunkedJsonProducer(String json) {
    this(json, false);
  }

  /** The same body with its length declared ({@code Content-Length}), still streamed. */
  public static ChunkedJsonProducer declaringItsLength(String json) {
    return new ChunkedJsonProducer(json, true);
  }

  private ChunkedJsonProducer(String json, boolean declared) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    declaredLength = declared ? bytes.length : -1;
    int third = bytes.length / 3;
    pieces = new byte[][] {
      java.util.Arrays.copyOfRange(bytes, 0, third),
      java.util.Arrays.copyOfRange(bytes, third, 2 * third),
      java.util.Arrays.copyOfRange(bytes, 2 * third, bytes.length)};
  }

  /** How often the client asked for a piece of the body. */
  public int produced() {
    return produced.get();
  }

  /** How often the client released the body's resources. */
  public int released() {
    return released.get();
  }

  @Override
  public boolean isRepeatable() {
    return false;
  }

  @Override
  public void failed(Exception cause) {
    // nothing held
  }

  @Override
  public long getContentLength() {
    return declaredLength;
  }

  @Override
  public String getContentType() {
    return ContentType.APPLICATION_JSON.toString();
  }

  @Override
  public String getContentEncoding() {
    return null;
  }

  @Override
  public boolean isChunked() {
    return declaredLength < 0;
  }

  @Override
  public Set<String> getTrailerNames() {
    return null;
  }

  @Override
  public synchronized int available() {
    return next < pieces.length ? pieces[next].length : 0;
  }

  @Override
  public synchronized void produce(DataStreamChannel channel) throws IOException {
    produced.incrementAndGet();
    if (next < pieces.length) {
      ByteBuffer piece = ByteBuffer.wrap(pieces[next]);
      channel.write(piece);
      if (piece.hasRemaining()) {
        pieces[next] = java.util.Arrays.copyOfRange(pieces[next], piece.position(), pieces[next].length);
        return;
      }
      next++;
    }
    if (next == pieces.length) {
      channel.endStream();
    } else {
      channel.requestOutput();
    }
  }

  @Override
  public void releaseResources() {
    released.incrementAndGet();
  }
}
