package io.tollgate.agent.apache5.helpers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;

/**
 * An entity larger than {@code tokens.max-buffered-body}, described as the original was (content
 * type, encoding, length, chunking), whose content is the bytes Tollgate read of it followed by
 * the rest, unread: a request body held in part and sent once, or a failed response the gate
 * could not hold and hands to the app as it came.
 */
final class PrefixedEntity extends HttpEntityWrapper {

  private final InputStream content;

  /** @param content the held bytes and then the rest: exactly the original's */
  PrefixedEntity(HttpEntity original, InputStream content) {
    super(original);
    this.content = content;
  }

  @Override
  public boolean isRepeatable() {
    return false;
  }

  @Override
  public boolean isStreaming() {
    return true;
  }

  @Override
  public InputStream getContent() {
    return content;
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    try (InputStream in = content) {
      in.transferTo(out);
    }
  }
}
