package io.tollgate.agent.okhttp.helpers;

import io.tollgate.gate.Transport;
import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Sends each attempt the gate plans down the rest of OkHttp's chain: the app's own request for the
 * provider it addressed, a rebuilt one (URL, headers, body of the plan) for a fallback.
 */
final class OkHttpTransport implements Transport<Response> {

  private final Interceptor.Chain chain;
  private final Request original;
  private final OutboundRequest outbound;
  private final MediaType contentType;
  private final boolean hasBody;
  /** The last response not yet discarded: given to the app if our own code fails after it. */
  private Response open;
  /**
   * Failed responses the gate still holds (to answer with if no fallback does) while it sends the
   * next attempt. OkHttp refuses to proceed while a response is open, so each is read into memory
   * (at most {@link #maxHeld} bytes: see {@link #hold}) and closed first; the copy is what the app
   * gets.
   */
  private Map<Response, Response> detached;
  /** {@code tokens.max-buffered-body}. */
  private final int maxHeld;

  OkHttpTransport(Interceptor.Chain chain, Request original, OutboundRequest outbound,
      MediaType contentType, boolean hasBody, int maxHeld) {
    this.chain = chain;
    this.original = original;
    this.outbound = outbound;
    this.contentType = contentType;
    this.hasBody = hasBody;
    this.maxHeld = maxHeld;
  }

  @Override
  public Response send(OutboundRequest plan) throws IOException {
    Request request = plan == outbound || plan.equals(outbound) ? original : rebuilt(plan);
    if (open != null && !hold(open)) {
      discard(open); // the gate asks to hold a failure before it tries another provider
    }
    Response response;
    try {
      response = chain.proceed(request);
    } catch (RuntimeException e) {
      throw new ProceedFailure(e);
    }
    open = response;
    return response;
  }

  private Request rebuilt(OutboundRequest plan) {
    Request rebuilt = original.newBuilder()
        .url(plan.uri().toString())
        .headers(OkHttpMessages.toOkHttp(plan.headers()))
        .method(plan.method(), hasBody ? RequestBody.create(contentType, plan.body()) : null)
        .build();
    return OriginGuard.retag(rebuilt, plan.headers());
  }

  @Override
  public int status(Response response) {
    return response.code();
  }

  @Override
  public Headers headers(Response response) {
    return OkHttpMessages.fromOkHttp(response.headers());
  }

  /** OkHttp requires an earlier response to be closed before the chain proceeds again. */
  @Override
  public void discard(Response response) {
    if (response == open) {
      open = null;
    }
    if (detached != null && detached.remove(response) != null) {
      return;
    }
    try {
      response.close();
    } catch (RuntimeException e) {
      // no body to close: nothing held
    }
  }

  /** What to hand the app for a response the gate returned: its in-memory copy if it was detached. */
  Response deliverable(Response response) {
    Response copy = detached == null ? null : detached.remove(response);
    return copy != null ? copy : response;
  }

  /**
   * Reads a failed response's body into memory and closes it, so that the chain may proceed with
   * the next attempt; the copy is what the app gets if the gate answers with it. A body larger than
   * {@code tokens.max-buffered-body} is not read beyond that: the bytes read stay buffered in
   * front of the rest, the response stays open as it is, and the gate answers with it at once.
   */
  @Override
  public boolean hold(Response response) {
    ResponseBody body = response.body();
    if (body == null) {
      detached(response, response);
      return true;
    }
    byte[] bytes;
    try {
      if (body.source().request(maxHeld + 1L)) {
        return false; // more than the bound: the app reads it from the source, bytes unchanged
      }
      bytes = body.source().readByteArray();
    } catch (IOException e) {
      bytes = new byte[0]; // the failed provider's body broke off: its status still stands
    }
    body.close();
    detached(response, response.newBuilder().body(ResponseBody.create(body.contentType(), bytes)).build());
    return true;
  }

  private void detached(Response response, Response copy) {
    if (open == response) {
      open = null;
    }
    if (detached == null) {
      detached = new IdentityHashMap<>(2);
    }
    detached.put(response, copy);
  }

  /** After a failure of ours: the response in hand if any, else the app's request as it was. */
  Response recover() throws IOException {
    Response response = open;
    open = null;
    return response != null ? response : chain.proceed(original);
  }

  /** Something further down the app's chain threw: rethrown to the app as it was. */
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
