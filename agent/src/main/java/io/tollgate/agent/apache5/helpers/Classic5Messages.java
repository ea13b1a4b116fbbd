package io.tollgate.agent.apache5.helpers;

import io.tollgate.agent.GatedRequests;
import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpVersion;
import org.apache.hc.core5.http.MessageHeaders;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.apache.hc.core5.net.URIAuthority;

/** Between HttpClient 5's messages and the core's. */
final class Classic5Messages {

  /** {@code CloseableHttpResponse.adapt}: public from 5.2, package-private before. */
  private static volatile Method adapt;

  private Classic5Messages() {}

  /** The host a request goes to: the explicit target, else the request's own authority. */
  static String hostOf(HttpHost target, HttpRequest request) {
    if (target != null) {
      return target.getHostName();
    }
    URIAuthority authority = request.getAuthority();
    return authority == null ? null : authority.getHostName();
  }

  /** The absolute URL a request goes to. */
  static URI uriOf(HttpHost target, HttpRequest request) throws URISyntaxException {
    if (target == null) {
      return request.getUri();
    }
    String path = request.getRequestUri();
    if (path.startsWith("http://") || path.startsWith("https://")) {
      return new URI(path);
    }
    return new URI(target.toURI() + (path.startsWith("/") ? path : "/" + path));
  }

  /** The target of a planned URL, the default port left to the scheme. */
  static HttpHost hostOf(URI uri) {
    return new HttpHost(uri.getScheme(), uri.getHost(), uri.getPort());
  }

  /** In order, names as written. */
  static Headers headersOf(MessageHeaders message) {
    Headers.Builder builder = Headers.builder();
    for (Header header : message.getHeaders()) {
      builder.add(header.getName(), header.getValue());
    }
    return builder.build();
  }

  /** Tollgate's answer as HttpClient would have delivered the provider's. */
  static CloseableHttpResponse synthetic(SyntheticResponse answer) throws ReflectiveOperationException {
    BasicClassicHttpResponse response = new BasicClassicHttpResponse(answer.status(),
        GatedRequests.reason(answer.status()));
    response.setVersion(HttpVersion.HTTP_1_1);
    for (Headers.Field field : answer.headers().fields()) {
      response.addHeader(field.name(), field.value());
    }
    String contentType = answer.headers().first("content-type").orElse(null);
    response.setEntity(new ByteArrayEntity(answer.body(),
        contentType == null ? null : ContentType.parse(contentType)));
    return closeable(response);
  }

  private static CloseableHttpResponse closeable(ClassicHttpResponse response)
      throws ReflectiveOperationException {
    Method method = adapt;
    if (method == null) {
      method = CloseableHttpResponse.class.getDeclaredMethod("adapt", ClassicHttpResponse.class);
      method.setAccessible(true);
      adapt = method;
    }
    return (CloseableHttpResponse) method.invoke(null, response);
  }
}
