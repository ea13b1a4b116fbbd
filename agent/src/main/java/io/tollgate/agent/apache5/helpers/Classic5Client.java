package io.tollgate.agent.apache5.helpers;

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
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.Configurable;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.protocol.HttpContext;

/** HttpClient 5's classic API, as the shared execution asks for it. */
final class Classic5Client
    implements ClassicClient<ClassicHttpRequest, CloseableHttpResponse, HttpEntity> {

  @Override
  public String hostOf(Object target, ClassicHttpRequest request) {
    return Classic5Messages.hostOf((HttpHost) target, request);
  }

  @Override
  public URI uriOf(Object target, ClassicHttpRequest request) throws URISyntaxException {
    return Classic5Messages.uriOf((HttpHost) target, request);
  }

  @Override
  public Object targetOf(URI uri) {
    return Classic5Messages.hostOf(uri);
  }

  @Override
  public String methodOf(ClassicHttpRequest request) {
    return request.getMethod();
  }

  @Override
  public Headers headersOf(ClassicHttpRequest request) {
    return Classic5Messages.headersOf(request);
  }

  @Override
  public HttpEntity entityOf(ClassicHttpRequest request) {
    return request.getEntity();
  }

  @Override
  public void setEntity(ClassicHttpRequest request, HttpEntity entity) {
    request.setEntity(entity);
  }

  @Override
  public ClassicHttpRequest rebuilt(OutboundRequest plan, ClassicHttpRequest original,
      HttpEntity body) {
    HttpUriRequestBase request = new HttpUriRequestBase(plan.method(), plan.uri());
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
    return request;
  }

  @Override
  public CloseableHttpResponse execute(Object client, Object target, ClassicHttpRequest request,
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
    return response.getCode();
  }

  @Override
  public Headers headersOfResponse(CloseableHttpResponse response) {
    return Classic5Messages.headersOf(response);
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
    try {
      return Classic5Messages.synthetic(answer);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make a CloseableHttpResponse", e);
    }
  }
}
