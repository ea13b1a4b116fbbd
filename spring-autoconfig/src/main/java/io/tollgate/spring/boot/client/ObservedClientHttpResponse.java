package io.tollgate.spring.boot.client;

import io.tollgate.gate.UsageObserver;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * The provider's response as it came, its body passing every byte the app reads through the
 * gate's {@link UsageObserver}: streams stay streams, and the call is settled when the body ends,
 * fails or is closed.
 */
final class ObservedClientHttpResponse implements ClientHttpResponse {

  private final ClientHttpResponse delegate;
  private final UsageObserver usage;
  private InputStream body;

  private ObservedClientHttpResponse(ClientHttpResponse delegate, UsageObserver usage) {
    this.delegate = delegate;
    this.usage = usage;
  }

  static ClientHttpResponse of(ClientHttpResponse response, UsageObserver usage) {
    return usage == UsageObserver.none() ? response : new ObservedClientHttpResponse(response, usage);
  }

  @Override
  public HttpStatusCode getStatusCode() throws IOException {
    return delegate.getStatusCode();
  }

  @Override
  public String getStatusText() throws IOException {
    return delegate.getStatusText();
  }

  @Override
  public HttpHeaders getHeaders() {
    return delegate.getHeaders();
  }

  @Override
  public synchronized InputStream getBody() throws IOException {
    if (body == null) {
      body = usage.wrap(delegate.getBody());
    }
    return body;
  }

  /** Closing before the end settles with what was read (the observer's rule for an abandoned body). */
  @Override
  public void close() {
    synchronized (this) {
      if (body == null) {
        usage.onError(new IOException("closed before its body was read"));
      } else {
        try {
          body.close();
        } catch (IOException e) {
          usage.onError(e);
        }
      }
    }
    delegate.close();
  }
}
