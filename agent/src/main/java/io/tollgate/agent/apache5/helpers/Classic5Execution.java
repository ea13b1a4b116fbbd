package io.tollgate.agent.apache5.helpers;

import io.tollgate.agent.AgentGates;
import io.tollgate.agent.GatedRequests;
import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.gate.UsageObserver;
import io.tollgate.router.OutboundRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * One classic HttpClient 5 execution ({@code doExecute}) to a watched host, through the gate: the
 * request body buffered (LLM requests are small, and the gate reads the prompt), the answer handed
 * back as the client's own response. Any other call costs one host comparison and runs unchanged.
 */
public final class Classic5Execution {

  static final String WHERE = "apache-httpclient-5.classic";
  private static final byte[] NO_BODY = new byte[0];

  private Classic5Execution() {}

  /** The hook woven into {@code doExecute}, which hands it every value as an object. */
  public static Object handle(Object client, Object target, Object request, Object context) {
    return handle((CloseableHttpClient) client, (HttpHost) target, (ClassicHttpRequest) request,
        (HttpContext) context);
  }

  /**
   * Called on entry to {@code doExecute}.
   *
   * @return null to let the client run the call itself; else what the call ends with: a
   *     {@code CloseableHttpResponse} to return, or the app's own exception to throw
   */
  public static Object handle(CloseableHttpClient client, HttpHost target,
      ClassicHttpRequest request, HttpContext context) {
    if (Classic5Transport.sending()) {
      return null; // one of Tollgate's own attempts
    }
    Gate gate;
    try {
      gate = AgentGates.gate();
      String host = Classic5Messages.hostOf(target, request);
      if (gate == null || host == null || !gate.watchesHost(host)) {
        return null;
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return null;
    }
    // A classic execute runs on the app's own thread: a limited call may wait there.
    return run(gate, client, target, request, context);
  }

  /** The call through {@code gate}; what {@link #handle} returns. */
  static Object run(Gate gate, CloseableHttpClient client, HttpHost target,
      ClassicHttpRequest request, HttpContext context) {
    HttpEntity entity = request.getEntity();
    URI uri;
    try {
      uri = Classic5Messages.uriOf(target, request);
      if (gate.providerFor(uri).isEmpty()
          || (entity != null && entity.getContentLength() > GatedRequests.MAX_BUFFERED_BODY)) {
        return null;
      }
    } catch (URISyntaxException | RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return null;
    }
    // The app's own entity: what it throws is the app's, as if HttpClient had written it.
    byte[] bytes;
    try {
      bytes = entity == null ? NO_BODY : bytesOf(entity);
    } catch (IOException | RuntimeException e) {
      return e;
    }
    // A streamed entity cannot be sent twice: the app's request gets the bytes read here, and no
    // fallback is tried (HttpClient itself never re-sends a non-repeatable entity).
    boolean replayable = entity == null || entity.isRepeatable();
    if (!replayable) {
      request.setEntity(new BufferedEntity(entity, bytes));
    }

    Classic5Transport transport;
    OutboundRequest outbound;
    try {
      outbound = OutboundRequest.of(request.getMethod(), uri,
          Classic5Messages.headersOf(request), bytes);
      transport = new Classic5Transport(client, target, request, context, outbound,
          gate.crossOriginHeaders());
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return null;
    }
    CallResult<CloseableHttpResponse> result;
    try {
      result = gate.call(outbound, replayable, transport);
    } catch (Classic5Transport.ProceedFailure e) {
      return e.original();
    } catch (IOException e) {
      return e; // no provider answered at all: the app sees its client's own failure
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return recover(transport);
    }
    if (result instanceof CallResult.Forwarded<CloseableHttpResponse> forwarded) {
      CloseableHttpResponse response = forwarded.response();
      try {
        return tapped(response, forwarded.usage());
      } catch (RuntimeException | LinkageError e) {
        InternalFailures.record(WHERE, e);
        return response;
      }
    }
    try {
      return Classic5Messages.synthetic(((CallResult.Synthetic<CloseableHttpResponse>) result).response());
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return recover(transport);
    }
  }

  /** The provider's response, its entity passing every byte the app reads through {@code usage}. */
  static CloseableHttpResponse tapped(CloseableHttpResponse response, UsageObserver usage) {
    if (usage == UsageObserver.none()) {
      return response;
    }
    HttpEntity entity = response.getEntity();
    if (entity == null) {
      usage.onEnd();
    } else {
      response.setEntity(new UsageTappingEntity(entity, usage));
    }
    return response;
  }

  private static Object recover(Classic5Transport transport) {
    try {
      return transport.recover();
    } catch (IOException | RuntimeException e) {
      return e instanceof Classic5Transport.ProceedFailure failure ? failure.original() : e;
    }
  }

  private static byte[] bytesOf(HttpEntity entity) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(
        (int) Math.max(0, Math.min(entity.getContentLength(), 64 * 1024)));
    entity.writeTo(out);
    return out.toByteArray();
  }
}
