package io.tollgate.agent.apache;

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

/**
 * Sends each attempt the gate plans through the app's own classic client: the app's request for
 * the provider it addressed, a rebuilt one (URL, headers, body of the plan, the app's request
 * config) for a fallback. The client's whole exec chain (retries, redirects, cookies, its
 * connection pool) runs for every attempt; only Tollgate's own advice is skipped ({@code sending}).
 */
final class ClassicTransport<Q, R, E> implements Transport<R> {

  private final ClassicClient<Q, R, E> api;
  private final ThreadLocal<Boolean> sending;
  private final Object client;
  private final Object target;
  private final Q original;
  private final Object context;
  private final OutboundRequest outbound;
  private final CrossOriginHeaders leaving;
  /** {@code tokens.max-buffered-body}: the most of a failed response's body held (see {@link #hold}). */
  private final int maxHeld;
  /** The last response not yet discarded: given to the app if our own code fails after it. */
  private R open;

  ClassicTransport(ClassicClient<Q, R, E> api, ThreadLocal<Boolean> sending, Object client,
      Object target, Q original, Object context, OutboundRequest outbound,
      CrossOriginHeaders leaving, int maxHeld) {
    this.api = api;
    this.sending = sending;
    this.client = client;
    this.target = target;
    this.original = original;
    this.context = context;
    this.outbound = outbound;
    this.leaving = leaving;
    this.maxHeld = maxHeld;
  }

  @Override
  public R send(OutboundRequest plan) throws IOException {
    if (open != null && !hold(open)) {
      discard(open); // the gate asks to hold a failure before it tries another provider
    }
    boolean asAddressed = plan == outbound || plan.equals(outbound);
    R response = execute(asAddressed ? target : api.targetOf(plan.uri()),
        asAddressed ? original : rebuilt(plan), plan.uri());
    open = response;
    return response;
  }

  /**
   * {@code request} through the client, its context naming the origin it goes to: the client may
   * follow a redirect from there with only the headers that may leave (the origin guards).
   */
  private R execute(Object host, Q request, URI to) throws IOException {
    Boolean outer = sending.get();
    sending.set(Boolean.TRUE);
    Object bound = api.contextOrNew(context);
    Object before = api.attribute(bound, ProviderOrigin.ATTRIBUTE);
    api.setAttribute(bound, ProviderOrigin.ATTRIBUTE,
        ProviderOrigin.of(to.getScheme(), to.getHost(), to.getPort(), leaving));
    try {
      return api.execute(client, host, request, bound);
    } catch (RuntimeException e) {
      throw new ProceedFailure(e);
    } finally {
      if (before == null) {
        api.removeAttribute(bound, ProviderOrigin.ATTRIBUTE);
      } else {
        api.setAttribute(bound, ProviderOrigin.ATTRIBUTE, before);
      }
      if (outer == null) {
        sending.remove();
      }
    }
  }

  private Q rebuilt(OutboundRequest plan) {
    E entity = api.entityOf(original);
    return api.rebuilt(plan, original, entity == null ? null : api.buffered(entity, plan.body()));
  }

  @Override
  public int status(R response) {
    return api.status(response);
  }

  @Override
  public Headers headers(R response) {
    return api.headersOfResponse(response);
  }

  @Override
  public void discard(R response) {
    if (response == open) {
      open = null;
    }
    try {
      api.close(response);
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
  public boolean hold(R response) {
    E entity = api.entityOfResponse(response);
    if (entity == null) {
      open = null;
      return true;
    }
    byte[] bytes;
    try {
      InputStream content = api.content(entity);
      bytes = content == null ? new byte[0] : content.readNBytes(maxHeld + 1);
      if (bytes.length > maxHeld) {
        api.setEntityOfResponse(response, api.prefixed(entity,
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
    api.setEntityOfResponse(response, api.buffered(entity, bytes));
    return true;
  }

  /** After a failure of ours: the response in hand if any, else the app's request as it was. */
  R recover() throws IOException {
    R response = open;
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
