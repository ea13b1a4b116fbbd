package io.tollgate.agent.apache4.helpers;

import io.tollgate.agent.GatedRequests;
import io.tollgate.agent.ProviderOrigin;
import io.tollgate.gate.Transport;
import io.tollgate.llm.Headers;
import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.router.OutboundRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import org.apache.http.HttpEntity;
import org.apache.http.HttpEntityEnclosingRequest;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.Configurable;
import org.apache.http.client.methods.RequestBuilder;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.protocol.HttpContext;

/**
 * Sends each attempt the gate plans through the app's own client: the app's request for the
 * provider it addressed, a rebuilt one (URL, headers, body of the plan, the app's request config)
 * for a fallback. The client's whole exec chain (retries, redirects, cookies, its connection
 * pool) runs for every attempt; only Tollgate's own hook is skipped ({@link #sending()}).
 */
final class Classic4Transport implements Transport<CloseableHttpResponse> {

  /** Set while this thread sends an attempt: the client's hook must let it through. */
  private static final ThreadLocal<Boolean> SENDING = new ThreadLocal<>();

  private final CloseableHttpClient client;
  private final HttpHost target;
  private final HttpRequest original;
  private final HttpContext context;
  private final OutboundRequest outbound;
  private final CrossOriginHeaders leaving;
  /** The last response not yet discarded: given to the app if our own code fails after it. */
  private CloseableHttpResponse open;
  /** {@code tokens.max-buffered-body}: the most of a failed response's body held (see {@link #hold}). */
  private final int maxHeld;

  Classic4Transport(CloseableHttpClient client, HttpHost target, HttpRequest original,
      HttpContext context, OutboundRequest outbound, CrossOriginHeaders leaving, int maxHeld) {
    this.client = client;
    this.leaving = leaving;
    this.target = target;
    this.original = original;
    this.context = context;
    this.outbound = outbound;
    this.maxHeld = maxHeld;
  }

  /** True while Tollgate itself sends through a client on this thread. */
  static boolean sending() {
    return SENDING.get() != null;
  }

  @Override
  public CloseableHttpResponse send(OutboundRequest plan) throws IOException {
    if (open != null && !hold(open)) {
      discard(open); // the gate asks to hold a failure before it tries another provider
    }
    boolean asAddressed = plan == outbound || plan.equals(outbound);
    CloseableHttpResponse response = execute(asAddressed ? target : Classic4Messages.hostOf(plan.uri()),
        asAddressed ? original : rebuilt(plan), plan.uri());
    open = response;
    return response;
  }

  /**
   * {@code request} through the client, its context naming the origin it goes to: the client may
   * follow a redirect from there with only the headers that may leave ({@link OriginGuard4}).
   */
  private CloseableHttpResponse execute(HttpHost host, HttpRequest request, URI to) throws IOException {
    Boolean outer = SENDING.get();
    SENDING.set(Boolean.TRUE);
    HttpContext bound = context != null ? context : HttpClientContext.create();
    Object before = bound.getAttribute(ProviderOrigin.ATTRIBUTE);
    bound.setAttribute(ProviderOrigin.ATTRIBUTE,
        ProviderOrigin.of(to.getScheme(), to.getHost(), to.getPort(), leaving));
    try {
      return client.execute(host, request, bound);
    } catch (RuntimeException e) {
      throw new ProceedFailure(e);
    } finally {
      if (before == null) {
        bound.removeAttribute(ProviderOrigin.ATTRIBUTE);
      } else {
        bound.setAttribute(ProviderOrigin.ATTRIBUTE, before);
      }
      if (outer == null) {
        SENDING.remove();
      }
    }
  }

  private HttpRequest rebuilt(OutboundRequest plan) {
    RequestBuilder request = RequestBuilder.create(plan.method()).setUri(plan.uri());
    for (Headers.Field field : plan.headers().fields()) {
      if (GatedRequests.carriedOver(field.name())) {
        request.addHeader(field.name(), field.value());
      }
    }
    if (original instanceof HttpEntityEnclosingRequest) {
      HttpEntity entity = ((HttpEntityEnclosingRequest) original).getEntity();
      if (entity != null) {
        request.setEntity(new BufferedEntity(entity, plan.body()));
      }
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
  public int status(CloseableHttpResponse response) {
    return response.getStatusLine().getStatusCode();
  }

  @Override
  public Headers headers(CloseableHttpResponse response) {
    return Classic4Messages.headersOf(response);
  }

  @Override
  public void discard(CloseableHttpResponse response) {
    if (response == open) {
      open = null;
    }
    try {
      response.close();
    } catch (IOException | RuntimeException e) {
      // the connection is dropped either way: nothing held
    }
  }

  /**
   * A refused response the gate may still answer with, its body read into memory so that its
   * connection goes back to the pool before the next attempt needs one. A body larger than {@code
   * tokens.max-buffered-body} is not read beyond that: the bytes read stay in front of the rest,
   * unread, and the gate answers with the response at once, its bytes as they came.
   */
  @Override
  public boolean hold(CloseableHttpResponse response) {
    HttpEntity entity = response.getEntity();
    if (entity == null) {
      open = null;
      return true;
    }
    byte[] bytes;
    try {
      InputStream content = entity.getContent();
      bytes = content == null ? new byte[0] : content.readNBytes(maxHeld + 1);
      if (bytes.length > maxHeld) {
        response.setEntity(new PrefixedEntity(entity,
            new SequenceInputStream(new ByteArrayInputStream(bytes), content)));
        return false;
      }
      if (content != null) {
        content.close(); // at its end: the connection is released
      }
    } catch (IOException e) {
      bytes = new byte[0]; // the failed provider's body broke off: its status still stands
    }
    open = null;
    response.setEntity(new BufferedEntity(entity, bytes));
    return true;
  }

  /** After a failure of ours: the response in hand if any, else the app's request as it was. */
  CloseableHttpResponse recover() throws IOException {
    CloseableHttpResponse response = open;
    open = null;
    return response != null ? response : execute(target, original, outbound.uri());
  }

  /** Something further down the app's client threw: rethrown to the app as it was. */
  static final class ProceedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProceedFailure(RuntimeException cause) {
      super(cause);
    }

    RuntimeException original() {
      return (RuntimeException) getCause();
    }
  }
}
