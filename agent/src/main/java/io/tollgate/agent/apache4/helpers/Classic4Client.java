package io.tollgate.agent.apache4.helpers;

import io.tollgate.agent.GatedRequests;
import io.tollgate.agent.apache.ClassicClient;
import io.tollgate.gate.UsageObserver;
import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.http.Header;
import org.apache.http.HttpEntity;
import org.apache.http.HttpEntityEnclosingRequest;
import org.apache.http.HttpHost;
import org.apache.http.HttpMessage;
import org.apache.http.HttpRequest;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.Configurable;
import org.apache.http.client.methods.HttpUriRequest;
import org.apache.http.client.methods.RequestBuilder;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.ContentType;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.protocol.HttpContext;

/** HttpClient 4.5's classic API, as the shared execution asks for it. */
final class Classic4Client implements ClassicClient<HttpRequest, CloseableHttpResponse, HttpEntity> {

  @Override
  public String hostOf(Object target, HttpRequest request) {
    if (target != null) {
      return ((HttpHost) target).getHostName();
    }
    return request instanceof HttpUriRequest ? ((HttpUriRequest) request).getURI().getHost() : null;
  }

  @Override
  public URI uriOf(Object target, HttpRequest request) throws URISyntaxException {
    String path = request.getRequestLine().getUri();
    if (path.startsWith("http://") || path.startsWith("https://")) {
      return new URI(path);
    }
    if (target == null) {
      throw new URISyntaxException(path, "no target host for a relative request URI");
    }
    return new URI(((HttpHost) target).toURI() + (path.startsWith("/") ? path : "/" + path));
  }

  @Override
  public Object targetOf(URI uri) {
    return new HttpHost(uri.getHost(), uri.getPort(), uri.getScheme());
  }

  @Override
  public String methodOf(HttpRequest request) {
    return request.getRequestLine().getMethod();
  }

  @Override
  public Headers headersOf(HttpRequest request) {
    return headers(request);
  }

  @Override
  public HttpEntity entityOf(HttpRequest request) {
    return request instanceof HttpEntityEnclosingRequest
        ? ((HttpEntityEnclosingRequest) request).getEntity() : null;
  }

  @Override
  public void setEntity(HttpRequest request, HttpEntity entity) {
    ((HttpEntityEnclosingRequest) request).setEntity(entity);
  }

  @Override
  public HttpRequest rebuilt(OutboundRequest plan, HttpRequest original, HttpEntity body) {
    RequestBuilder request = RequestBuilder.create(plan.method()).setUri(plan.uri());
    for (Headers.Field field : plan.headers().fields()) {
      if (GatedRequests.carriedOver(field.name())) {
        request.addHeader(field.name(), field.value());
      }
    }
    if (body != null) {
      request.setEntity(body);
    }
    if (original instanceof Configurable) {
      RequestConfig config = ((Configurable) original).getConfig();
      if (config != null) {
        request.setConfig(config);
      }
    }
    return request.build();
  }

  @Override
  public CloseableHttpResponse execute(Object client, Object target, HttpRequest request,
      Object context) throws IOException {
    return ((CloseableHttpClient) client).execute((HttpHost) target, request, (HttpContext) context);
  }

  @Override
  public Object contextOrNew(Object context) {
    return context != null ? context : HttpClientContext.create();
  }

  @Override
  public Object attribute(Object context, String name) {
    return ((HttpContext) context).getAttribute(name);
  }

  @Override
  public void setAttribute(Object context, String name, Object value) {
    ((HttpContext) context).setAttribute(name, value);
  }

  @Override
  public void removeAttribute(Object context, String name) {
    ((HttpContext) context).removeAttribute(name);
  }

  @Override
  public long contentLength(HttpEntity entity) {
    return entity.getContentLength();
  }

  @Override
  public boolean isRepeatable(HttpEntity entity) {
    return entity.isRepeatable();
  }

  @Override
  public boolean isStreaming(HttpEntity entity) {
    return entity.isStreaming();
  }

  @Override
  public InputStream content(HttpEntity entity) throws IOException {
    return entity.getContent();
  }

  @Override
  public void writeTo(HttpEntity entity, OutputStream out) throws IOException {
    entity.writeTo(out);
  }

  @Override
  public HttpEntity buffered(HttpEntity original, byte[] bytes) {
    return new BufferedEntity(original, bytes);
  }

  @Override
  public HttpEntity prefixed(HttpEntity original, InputStream content) {
    return new PrefixedEntity(original, content);
  }

  @Override
  public HttpEntity tapping(HttpEntity entity, UsageObserver usage) {
    return new UsageTappingEntity(entity, usage);
  }

  @Override
  public int status(CloseableHttpResponse response) {
    return response.getStatusLine().getStatusCode();
  }

  @Override
  public Headers headersOfResponse(CloseableHttpResponse response) {
    return headers(response);
  }

  @Override
  public HttpEntity entityOfResponse(CloseableHttpResponse response) {
    return response.getEntity();
  }

  @Override
  public void setEntityOfResponse(CloseableHttpResponse response, HttpEntity entity) {
    response.setEntity(entity);
  }

  @Override
  public void close(CloseableHttpResponse response) throws IOException {
    response.close();
  }

  @Override
  public CloseableHttpResponse synthetic(SyntheticResponse answer) {
    AnsweredResponse response = new AnsweredResponse(answer.status());
    for (Headers.Field field : answer.headers().fields()) {
      response.addHeader(field.name(), field.value());
    }
    String contentType = answer.headers().first("content-type").orElse(null);
    response.setEntity(new ByteArrayEntity(answer.body(),
        contentType == null ? null : ContentType.parse(contentType)));
    return response;
  }

  /** In order, names as written. */
  static Headers headers(HttpMessage message) {
    Headers.Builder builder = Headers.builder();
    for (Header header : message.getAllHeaders()) {
      builder.add(header.getName(), header.getValue());
    }
    return builder.build();
  }
}
