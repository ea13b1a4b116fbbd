package io.tollgate.agent.apache4.helpers;

import io.tollgate.agent.AgentGates;
import io.tollgate.agent.BodyPipe;
import io.tollgate.agent.BoundedBody;
import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.gate.UsageObserver;
import io.tollgate.router.OutboundRequest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.http.HttpEntity;
import org.apache.http.HttpEntityEnclosingRequest;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.protocol.HttpContext;

/**
 * One classic HttpClient 4.5 execution ({@code doExecute}) to a watched host, through the gate: the
 * request body buffered (LLM requests are small, and the gate reads the prompt), the answer handed
 * back as the client's own response. Any other call costs one host comparison and runs unchanged.
 */
public final class Classic4Execution {

  static final String WHERE = "apache-httpclient-4.classic";
  private static final byte[] NO_BODY = new byte[0];

  private Classic4Execution() {}

  /** The hook woven into {@code doExecute}, which hands it every value as an object. */
  public static Object handle(Object client, Object target, Object request, Object context) {
    return handle((CloseableHttpClient) client, (HttpHost) target, (HttpRequest) request,
        (HttpContext) context);
  }

  /**
   * Called on entry to {@code doExecute}.
   *
   * @return null to let the client run the call itself; else what the call ends with: a
   *     {@code CloseableHttpResponse} to return, or the app's own exception to throw
   */
  public static Object handle(CloseableHttpClient client, HttpHost target,
      HttpRequest request, HttpContext context) {
    if (Classic4Transport.sending()) {
      return null; // one of Tollgate's own attempts
    }
    Gate gate;
    try {
      gate = AgentGates.gate();
      String host = Classic4Messages.hostOf(target, request);
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
      HttpRequest request, HttpContext context) {
    HttpEntity entity = request instanceof HttpEntityEnclosingRequest
        ? ((HttpEntityEnclosingRequest) request).getEntity() : null;
    URI uri;
    try {
      uri = Classic4Messages.uriOf(target, request);
      if (gate.providerFor(uri).isEmpty()) {
        return null;
      }
    } catch (URISyntaxException | RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return null;
    }
    // The app's own entity: what it throws is the app's, as if HttpClient had written it.
    BoundedBody read;
    try {
      read = entity == null ? null : read(entity, gate.config().tokens().maxBufferedBody());
    } catch (IOException | RuntimeException e) {
      return e;
    }
    try {
      return gated(gate, client, target, request, context, uri, entity, read);
    } finally {
      if (read != null) {
        read.abandon(); // sent by now, or never to be: the app's stream is let go
      }
    }
  }

  private static Object gated(Gate gate, CloseableHttpClient client, HttpHost target,
      HttpRequest request, HttpContext context, URI uri, HttpEntity entity, BoundedBody read) {
    byte[] bytes = read == null ? NO_BODY : read.held();
    boolean whole = read == null || read.whole();
    // A streamed entity cannot be sent twice: the app's request gets the bytes read here, and no
    // fallback is tried (HttpClient itself never re-sends a non-repeatable entity). Nor is one
    // larger than tokens.max-buffered-body: held in part, the rest is sent from the app's entity.
    boolean replayable = whole && (entity == null || entity.isRepeatable());
    if (!whole) {
      try {
        ((HttpEntityEnclosingRequest) request).setEntity(new PrefixedEntity(entity, read.asSent()));
      } catch (IOException e) {
        return e; // not reached: the body was read here, not sent
      }
    } else if (!replayable) {
      ((HttpEntityEnclosingRequest) request).setEntity(new BufferedEntity(entity, bytes));
    }

    Classic4Transport transport;
    OutboundRequest outbound;
    try {
      outbound = whole
          ? OutboundRequest.of(request.getRequestLine().getMethod(), uri, Classic4Messages.headersOf(request), bytes)
          : OutboundRequest.withHeldPrefix(request.getRequestLine().getMethod(), uri, Classic4Messages.headersOf(request), bytes,
              read.streamed());
      transport = new Classic4Transport(client, target, request, context, outbound,
          gate.crossOriginHeaders(), gate.config().tokens().maxBufferedBody());
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return null;
    }
    CallResult<CloseableHttpResponse> result;
    try {
      result = gate.call(outbound, replayable, transport);
    } catch (Classic4Transport.ProceedFailure e) {
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
      return Classic4Messages.synthetic(((CallResult.Synthetic<CloseableHttpResponse>) result).response());
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return recover(transport);
    }
  }

  /**
   * Called on entry to {@code close()} of a response the client returned: a provider's answer
   * closed before its entity was read to the end is settled with what was read (nothing read: the
   * estimate; the provider did the work). Anything else, or an answer already settled, is left be.
   */
  public static void closing(Object closed) {
    try {
      HttpEntity entity = ((CloseableHttpResponse) closed).getEntity();
      if (entity instanceof UsageTappingEntity) {
        ((UsageTappingEntity) entity).responseClosed();
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
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

  private static Object recover(Classic4Transport transport) {
    try {
      return transport.recover();
    } catch (IOException | RuntimeException e) {
      return e instanceof Classic4Transport.ProceedFailure failure ? failure.original() : e;
    }
  }

  /**
   * The app's entity read up to {@code bound}: one of known length within it into memory, as the
   * client would write it; a stream of unknown length from that stream; any other through a
   * {@link BodyPipe}, its {@code writeTo} on a thread of its own. No more than the bound is ever
   * taken from it before the call is decided.
   */
  private static BoundedBody read(HttpEntity entity, int bound) throws IOException {
    long length = entity.getContentLength();
    if (length >= 0 && length <= bound) {
      ByteArrayOutputStream out = new ByteArrayOutputStream((int) length);
      entity.writeTo(out);
      return BoundedBody.read(new ByteArrayInputStream(out.toByteArray()), Math.max(bound, out.size()), length);
    }
    if (length < 0 && entity.isStreaming()) {
      return BoundedBody.read(entity.getContent(), bound, length); // all of the stream, as writeTo
    }
    return BoundedBody.read(BodyPipe.start(entity::writeTo), bound, length);
  }
}
