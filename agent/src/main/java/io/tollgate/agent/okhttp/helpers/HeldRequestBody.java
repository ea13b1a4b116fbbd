package io.tollgate.agent.okhttp.helpers;

import io.tollgate.agent.BoundedBody;
import java.io.IOException;
import java.io.InputStream;
import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.BufferedSink;
import okio.Okio;

/**
 * An app's body larger than {@code tokens.max-buffered-body}, as OkHttp sends it: the bytes
 * Tollgate held, then the rest from the app's own body as it writes it, once. Described as the
 * app's body was (media type, length).
 */
final class HeldRequestBody extends RequestBody {

  private final RequestBody original;
  private final BoundedBody body;

  HeldRequestBody(RequestBody original, BoundedBody body) {
    this.original = original;
    this.body = body;
  }

  @Override
  public MediaType contentType() {
    return original.contentType();
  }

  @Override
  public long contentLength() throws IOException {
    return original.contentLength();
  }

  /** OkHttp 3.14+: neither its retries nor a redirect may ask for the body again. */
  @Override
  public boolean isOneShot() {
    return true;
  }

  @Override
  public void writeTo(BufferedSink sink) throws IOException {
    try (InputStream in = body.asSent()) {
      sink.writeAll(Okio.source(in));
    }
  }
}
