package io.tollgate.agent.apache;

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

/**
 * One classic Apache HttpClient execution ({@code doExecute}, 4.5 or 5) to a watched host, through
 * the gate: the request body read up to {@code tokens.max-buffered-body} (the gate reads the
 * prompt), the answer handed back as the client's own response. Any other call costs one host
 * comparison and runs unchanged. One instance per HttpClient line, its {@link ClassicClient}
 * naming that line's types.
 */
public final class ClassicExecution<Q, R, E> {

  private static final byte[] NO_BODY = new byte[0];

  private final ClassicClient<Q, R, E> api;
  private final String where;
  /** Set while this thread sends an attempt: the client's advice must let it through. */
  private final ThreadLocal<Boolean> sending = new ThreadLocal<>();

  /** @param where the name failures are counted under ({@link InternalFailures}) */
  public ClassicExecution(ClassicClient<Q, R, E> api, String where) {
    this.api = api;
    this.where = where;
  }

  /**
   * Called on entry to {@code doExecute}.
   *
   * @return null to let the client run the call itself; else what the call ends with: a response
   *     to return, or the app's own exception to throw
   */
  public Object handle(Object client, Object target, Q request, Object context) {
    if (sending.get() != null) {
      return null; // one of Tollgate's own attempts
    }
    Gate gate;
    try {
      gate = AgentGates.gate();
      String host = api.hostOf(target, request);
      if (gate == null || host == null || !gate.watchesHost(host)) {
        return null;
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(where, e);
      return null;
    }
    // A classic execute runs on the app's own thread: a limited call may wait there.
    return run(gate, client, target, request, context);
  }

  /** The call through {@code gate}; what {@link #handle} returns. */
  public Object run(Gate gate, Object client, Object target, Q request, Object context) {
    E entity = api.entityOf(request);
    URI uri;
    try {
      uri = api.uriOf(target, request);
      if (gate.providerFor(uri).isEmpty()) {
        return null;
      }
    } catch (URISyntaxException | RuntimeException | LinkageError e) {
      InternalFailures.record(where, e);
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

  private Object gated(Gate gate, Object client, Object target, Q request, Object context,
      URI uri, E entity, BoundedBody read) {
    byte[] bytes = read == null ? NO_BODY : read.held();
    boolean whole = read == null || read.whole();
    // A streamed entity cannot be sent twice: the app's request gets the bytes read here, and no
    // fallback is tried (HttpClient itself never re-sends a non-repeatable entity). Nor is one
    // larger than tokens.max-buffered-body: held in part, the rest is sent from the app's entity.
    boolean replayable = whole && (entity == null || api.isRepeatable(entity));
    if (!whole) {
      try {
        api.setEntity(request, api.prefixed(entity, read.asSent()));
      } catch (IOException e) {
        return e; // not reached: the body was read here, not sent
      }
    } else if (!replayable) {
      api.setEntity(request, api.buffered(entity, bytes));
    }

    ClassicTransport<Q, R, E> transport;
    OutboundRequest outbound;
    try {
      String method = api.methodOf(request);
      outbound = whole
          ? OutboundRequest.of(method, uri, api.headersOf(request), bytes)
          : OutboundRequest.withHeldPrefix(method, uri, api.headersOf(request), bytes,
              read.streamed());
      transport = new ClassicTransport<>(api, sending, client, target, request, context, outbound,
          gate.crossOriginHeaders(), gate.config().tokens().maxBufferedBody());
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(where, e);
      return null;
    }
    CallResult<R> result;
    try {
      result = gate.call(outbound, replayable, transport);
    } catch (ClassicTransport.ProceedFailure e) {
      return e.original();
    } catch (IOException e) {
      return e; // no provider answered at all: the app sees its client's own failure
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(where, e);
      return recover(transport);
    }
    if (result instanceof CallResult.Forwarded<R> forwarded) {
      R response = forwarded.response();
      try {
        return tapped(response, forwarded.usage());
      } catch (RuntimeException | LinkageError e) {
        InternalFailures.record(where, e);
        return response;
      }
    }
    try {
      return api.synthetic(((CallResult.Synthetic<R>) result).response());
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(where, e);
      return recover(transport);
    }
  }

  /** The provider's response, its entity passing every byte the app reads through {@code usage}. */
  R tapped(R response, UsageObserver usage) {
    if (usage == UsageObserver.none()) {
      return response;
    }
    E entity = api.entityOfResponse(response);
    if (entity == null) {
      usage.onEnd();
    } else {
      api.setEntityOfResponse(response, api.tapping(entity, usage));
    }
    return response;
  }

  private static Object recover(ClassicTransport<?, ?, ?> transport) {
    try {
      return transport.recover();
    } catch (IOException | RuntimeException e) {
      return e instanceof ClassicTransport.ProceedFailure failure ? failure.original() : e;
    }
  }

  /**
   * The app's entity read up to {@code bound}: one of known length within it into memory, as the
   * client would write it; a stream of unknown length from that stream; any other through a
   * {@link BodyPipe}, its {@code writeTo} on a thread of its own. No more than the bound is ever
   * taken from it before the call is decided.
   */
  private BoundedBody read(E entity, int bound) throws IOException {
    long length = api.contentLength(entity);
    if (length >= 0 && length <= bound) {
      ByteArrayOutputStream out = new ByteArrayOutputStream((int) length);
      api.writeTo(entity, out);
      return BoundedBody.read(new ByteArrayInputStream(out.toByteArray()),
          Math.max(bound, out.size()), length);
    }
    if (length < 0 && api.isStreaming(entity)) {
      return BoundedBody.read(api.content(entity), bound, length); // all of the stream, as writeTo
    }
    return BoundedBody.read(BodyPipe.start(out -> api.writeTo(entity, out)), bound, length);
  }
}
