package io.tollgate.agent.apache5.helpers;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.IOException;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;

/**
 * An entity's bytes held in memory, described as the original was (content type, encoding,
 * chunking): a request body read once to be sent again, or a refused response kept while a
 * fallback is tried.
 */
final class BufferedEntity extends HttpEntityWrapper {

  private final byte[] bytes;

  BufferedEntity(HttpEntity original, byte[] bytes) {
    super(original);
    this.bytes = bytes;
  }

  @Override
  public boolean isRepeatable() {
    return true;
  }

  @Override
  public long getContentLength() {
    return bytes.length;
  }

  @Override
  public InputStream getContent() {
    return new ByteArrayInputStream(bytes);
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes);
  }

  @Override
  public boolean isStreaming() {
    return false;
  }
}
