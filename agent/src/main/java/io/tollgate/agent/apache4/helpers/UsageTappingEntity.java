package io.tollgate.agent.apache4.helpers;

import io.tollgate.gate.UsageObserver;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.http.HttpEntity;
import org.apache.http.entity.HttpEntityWrapper;

/**
 * The provider's response entity as the app reads it: every byte passes through the call's
 * {@link UsageObserver} unchanged and undelayed. The end of the content, an error, or a close of
 * the content before its end ({@code EntityUtils.consume} included), or of the response
 * ({@link #responseClosed}), settles the reservation.
 */
final class UsageTappingEntity extends HttpEntityWrapper {

  private final UsageObserver usage;

  UsageTappingEntity(HttpEntity entity, UsageObserver usage) {
    super(entity);
    this.usage = usage;
  }

  @Override
  public InputStream getContent() throws IOException {
    InputStream raw;
    try {
      raw = super.getContent();
    } catch (IOException | RuntimeException e) {
      usage.onError(e);
      throw e;
    }
    return usage.wrap(raw);
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    try (InputStream in = getContent()) {
      in.transferTo(out);
    }
  }

  /** The response was closed: whatever was not read by now never will be. */
  void responseClosed() {
    usage.onError(new IOException("response closed before its entity was read to the end"));
  }

  @Override
  @SuppressWarnings("deprecation") // still called by apps of the 4.0 era
  public void consumeContent() throws IOException {
    getContent().close();
  }
}
