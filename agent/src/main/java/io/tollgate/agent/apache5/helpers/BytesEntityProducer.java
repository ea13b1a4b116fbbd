package io.tollgate.agent.apache5.helpers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Set;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
import org.apache.hc.core5.http.nio.DataStreamChannel;

/**
 * A request body read into memory, sent again as often as asked, described as the app's entity
 * was (content type and encoding as written).
 */
final class BytesEntityProducer implements AsyncEntityProducer {

  private final byte[] bytes;
  private final String contentType;
  private final String contentEncoding;
  private ByteBuffer remaining;

  BytesEntityProducer(byte[] bytes, EntityDetails described) {
    this.bytes = bytes;
    this.contentType = described.getContentType();
    this.contentEncoding = described.getContentEncoding();
    this.remaining = ByteBuffer.wrap(bytes);
  }

  @Override
  public boolean isRepeatable() {
    return true;
  }

  @Override
  public void failed(Exception cause) {
    // nothing held but the bytes
  }

  @Override
  public long getContentLength() {
    return bytes.length;
  }

  @Override
  public String getContentType() {
    return contentType;
  }

  @Override
  public String getContentEncoding() {
    return contentEncoding;
  }

  @Override
  public boolean isChunked() {
    return false;
  }

  @Override
  public Set<String> getTrailerNames() {
    return null;
  }

  @Override
  public synchronized int available() {
    return remaining.remaining();
  }

  @Override
  public synchronized void produce(DataStreamChannel channel) throws IOException {
    if (remaining.hasRemaining()) {
      channel.write(remaining);
    }
    if (!remaining.hasRemaining()) {
      channel.endStream();
    }
  }

  @Override
  public synchronized void releaseResources() {
    remaining = ByteBuffer.wrap(bytes);
  }
}
