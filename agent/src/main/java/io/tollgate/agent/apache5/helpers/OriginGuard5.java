package io.tollgate.agent.apache5.helpers;

import io.tollgate.agent.InternalFailures;
import io.tollgate.agent.ProviderOrigin;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.hc.client5.http.impl.async.H2AsyncClientBuilder;
import org.apache.hc.client5.http.impl.async.HttpAsyncClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpRequestInterceptor;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.net.URIAuthority;

/**
 * The last request interceptor of every HttpClient 5 client made by a builder, classic and async
 * (HTTP/1.1 and HTTP/2): it runs for each request the client writes, each hop of a redirect
 * included, after the client's own interceptors (default headers, cookies). HttpClient copies the
 * original's headers to a redirect (5.5 and later drop {@code Authorization} and {@code Cookie} to
 * another host, or refuse it, but no other header); a request Tollgate sent for a provider
 * ({@link ProviderOrigin} in its context) that leaves the provider's origin keeps only the headers
 * that may leave.
 */
public final class OriginGuard5 implements HttpRequestInterceptor {

  static final String WHERE = "apache-httpclient-5.redirect";

  /** The builders given one already: {@code build()} may be called again. */
  private static final Map<Object, Boolean> GUARDED = Collections.synchronizedMap(new WeakHashMap<>());

  /** Woven at the start of {@code build()} of the classic, async and HTTP/2 async builders. */
  public static void addTo(Object builder) {
    try {
      if (GUARDED.put(builder, Boolean.TRUE) != null) {
        return;
      }
      if (builder instanceof HttpClientBuilder) {
        ((HttpClientBuilder) builder).addRequestInterceptorLast(new OriginGuard5());
      } else if (builder instanceof HttpAsyncClientBuilder) {
        ((HttpAsyncClientBuilder) builder).addRequestInterceptorLast(new OriginGuard5());
      } else if (builder instanceof H2AsyncClientBuilder) {
        ((H2AsyncClientBuilder) builder).addRequestInterceptorLast(new OriginGuard5());
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
    }
  }

  @Override
  public void process(HttpRequest request, EntityDetails entity, HttpContext context) {
    try {
      guard(request, context);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
    }
  }

  static void guard(HttpRequest request, HttpContext context) {
    Object attribute = context == null ? null : context.getAttribute(ProviderOrigin.ATTRIBUTE);
    if (!(attribute instanceof ProviderOrigin) || "CONNECT".equalsIgnoreCase(request.getMethod())) {
      return; // not Tollgate's call, or a proxy tunnel's request, which is the proxy's
    }
    ProviderOrigin origin = (ProviderOrigin) attribute;
    URIAuthority authority = request.getAuthority();
    if (authority != null
        && origin.isAt(request.getScheme(), authority.getHostName(), authority.getPort())) {
      return;
    }
    for (Header header : request.getHeaders()) {
      if (!origin.mayLeave(header.getName())) {
        request.removeHeader(header);
      }
    }
  }
}
