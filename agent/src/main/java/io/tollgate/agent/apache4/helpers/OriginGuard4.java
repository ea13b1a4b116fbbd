package io.tollgate.agent.apache4.helpers;

import io.tollgate.agent.InternalFailures;
import io.tollgate.agent.ProviderOrigin;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.protocol.HttpContext;
import org.apache.http.protocol.HttpCoreContext;

/**
 * The hook before HttpCore 4's {@code HttpRequestExecutor} writes a request: every client of
 * HttpClient 4.5 sends each request through it, each hop of a redirect included, after its own
 * interceptors (default headers, cookies) ran. HttpClient copies the original's headers, all of
 * them, to a redirect to any host; a request Tollgate sent for a provider ({@link ProviderOrigin}
 * in its context) that leaves the provider's origin keeps only the headers that may leave.
 */
public final class OriginGuard4 {

  static final String WHERE = "apache-httpclient-4.redirect";

  private OriginGuard4() {}

  /**
   * Woven at the start of {@code execute(HttpRequest, HttpClientConnection, HttpContext)}.
   *
   * @return null: the method runs on
   */
  public static Object beforeExecute(Object executor, Object request, Object connection, Object context) {
    try {
      if (context instanceof HttpContext && request instanceof HttpRequest) {
        guard((HttpRequest) request, (HttpContext) context);
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
    }
    return null;
  }

  static void guard(HttpRequest request, HttpContext context) {
    Object attribute = context.getAttribute(ProviderOrigin.ATTRIBUTE);
    if (!(attribute instanceof ProviderOrigin)
        || request.getRequestLine().getMethod().equalsIgnoreCase("CONNECT")) {
      return; // not Tollgate's call, or a proxy tunnel's request, which is the proxy's
    }
    ProviderOrigin origin = (ProviderOrigin) attribute;
    Object target = context.getAttribute(HttpCoreContext.HTTP_TARGET_HOST);
    if (target instanceof HttpHost && origin.isAt(((HttpHost) target).getSchemeName(),
        ((HttpHost) target).getHostName(), ((HttpHost) target).getPort())) {
      return;
    }
    for (Header header : request.getAllHeaders()) {
      if (!origin.mayLeave(header.getName())) {
        request.removeHeader(header);
      }
    }
  }
}
