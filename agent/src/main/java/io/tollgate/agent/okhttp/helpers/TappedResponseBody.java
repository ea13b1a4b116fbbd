package io.tollgate.agent.okhttp.helpers;

import io.tollgate.gate.UsageObserver;
import okhttp3.MediaType;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import okio.Okio;

/**
 * The provider's body with every byte the app reads passing through the call's usage tap. Its
 * media type and length are the original body's, asked for only when the app asks: OkHttp parses
 * the content type anew on each call, and the app parses it once already.
 */
final class TappedResponseBody extends ResponseBody {

  private final ResponseBody original;
  private final BufferedSource source;

  TappedResponseBody(ResponseBody original, UsageObserver usage) {
    this.original = original;
    this.source = Okio.buffer(new UsageTappingSource(original.source(), usage));
  }

  @Override
  public MediaType contentType() {
    return original.contentType();
  }

  @Override
  public long contentLength() {
    return original.contentLength();
  }

  @Override
  public BufferedSource source() {
    return source;
  }
}
