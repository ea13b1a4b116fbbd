package io.tollgate.agent.apache5.helpers;

import io.tollgate.gate.UsageObserver;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;

/**
 * The provider's response entity as the app reads it: every byte passes through the call's
 * {@link UsageObserver} unchanged and undelayed. The end of the content, an error, or a close
 * before the end (of the content, the entity or the response) settles the reservation.
 */
final class UsageTappingEntity extends HttpEntityWrapper {

  private final UsageObserver usage;
  private InputStream content;

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
    content = usage.wrap(raw);
    return content;
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    try (InputStream in = getContent()) {
      in.transferTo(out);
    }
  }

  @Override
  public void close() throws IOException {
    if (content != null) {
      content.close(); // settles with what was read, if the app stopped early
    } else {
      usage.onError(new IOException("response closed before its body was read"));
    }
    super.close();
  }
}
