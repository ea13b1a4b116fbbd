package io.tollgate.agent.apache4.helpers;

import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.HttpMessage;
import org.apache.http.HttpRequest;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpUriRequest;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.ContentType;

/** Between HttpClient 4's messages and the core's. */
final class Classic4Messages {

  private Classic4Messages() {}

  /** The host a request goes to: the explicit target, else the request's own absolute URI. */
  static String hostOf(HttpHost target, HttpRequest request) {
    if (target != null) {
      return target.getHostName();
    }
    return request instanceof HttpUriRequest ? ((HttpUriRequest) request).getURI().getHost() : null;
  }

  /** The absolute URL a request goes to. */
  static URI uriOf(HttpHost target, HttpRequest request) throws URISyntaxException {
    String path = request.getRequestLine().getUri();
    if (path.startsWith("http://") || path.startsWith("https://")) {
      return new URI(path);
    }
    if (target == null) {
      throw new URISyntaxException(path, "no target host for a relative request URI");
    }
    return new URI(target.toURI() + (path.startsWith("/") ? path : "/" + path));
  }

  /** The target of a planned URL, the default port left to the scheme. */
  static HttpHost hostOf(URI uri) {
    return new HttpHost(uri.getHost(), uri.getPort(), uri.getScheme());
  }

  /** In order, names as written. */
  static Headers headersOf(HttpMessage message) {
    Headers.Builder builder = Headers.builder();
    for (Header header : message.getAllHeaders()) {
      builder.add(header.getName(), header.getValue());
    }
    return builder.build();
  }

  /** Tollgate's answer as HttpClient would have delivered the provider's. */
  static CloseableHttpResponse synthetic(SyntheticResponse answer) {
    AnsweredResponse response = new AnsweredResponse(answer.status());
    for (Headers.Field field : answer.headers().fields()) {
      response.addHeader(field.name(), field.value());
    }
    String contentType = answer.headers().first("content-type").orElse(null);
    response.setEntity(new ByteArrayEntity(answer.body(),
        contentType == null ? null : ContentType.parse(contentType)));
    return response;
  }
}
