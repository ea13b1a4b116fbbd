package io.tollgate.spring.boot.client;

import io.tollgate.router.OutboundRequest;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;

/** A fallback attempt as the gate planned it: its URL, its own credential, its mapped model. */
final class PlannedHttpRequest implements HttpRequest {

  private final HttpMethod method;
  private final URI uri;
  private final HttpHeaders headers;
  private final Map<String, Object> attributes;

  PlannedHttpRequest(OutboundRequest plan, Map<String, Object> attributes) {
    this.method = HttpMethod.valueOf(plan.method());
    this.uri = plan.uri();
    this.headers = SpringHeaders.toSpring(plan.headers());
    if (plan.bodyLength() > 0) {
      // Its own length (a renamed model changes it); without one some clients stream the body
      // chunked, or the JDK client tries an h2c upgrade that cleartext servers may drop.
      headers.setContentLength(plan.bodyLength());
    }
    this.attributes = new HashMap<>(attributes);
  }

  @Override
  public HttpMethod getMethod() {
    return method;
  }

  @Override
  public URI getURI() {
    return uri;
  }

  @Override
  public HttpHeaders getHeaders() {
    return headers;
  }

  @Override
  public Map<String, Object> getAttributes() {
    return attributes;
  }
}
