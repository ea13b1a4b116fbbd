package io.tollgate.agent.okhttp.helpers;

import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.gate.UsageObserver;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;

/**
 * One OkHttp call to a watched host, through the gate: the request body buffered (LLM requests
 * are small, and the gate reads the prompt), the answer turned back into an OkHttp response.
 */
final class GatedCall {

  private static final byte[] NO_BODY = new byte[0];
  /**
   * A body announced larger than this (a file or audio upload to the provider's host) is not
   * buffered: the call passes untouched, as a call Tollgate does not limit.
   */
  static final long MAX_BUFFERED_BODY = 16L * 1024 * 1024;

  private GatedCall() {}

  /**
   * @param mayPause false on a thread that must not sleep (OkHttp's dispatcher, running an
   *     enqueued call): no wait for room, no switch-over jitter ({@link Gate#callWithoutPausing})
   */
  static Response run(Gate gate, Interceptor.Chain chain, Request request, boolean mayPause)
      throws IOException {
    RequestBody body = request.body();
    URI uri;
    try {
      uri = uriOf(request.url());
      if (gate.providerFor(uri).isEmpty()) {
        return chain.proceed(request);
      }
      // limited or not, a provider's call: no credential follows a redirect off its origin
      request = OriginGuard.tag(request, gate.crossOriginHeaders());
      if (body != null && (isDuplex(body) || body.contentLength() > MAX_BUFFERED_BODY)) {
        return chain.proceed(request);
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(TollgateInterceptor.WHERE, e);
      return chain.proceed(request);
    }
    // The app's own body: what it throws is the app's, as if OkHttp had written it.
    byte[] bytes = body == null ? NO_BODY : bytesOf(body);
    boolean replayable = body == null || !isOneShot(body);
    Request sendable = replayable ? request
        : request.newBuilder().method(request.method(), RequestBody.create(body.contentType(), bytes)).build();

    OkHttpTransport transport;
    OutboundRequest outbound;
    try {
      outbound = OutboundRequest.of(request.method(), uri,
          OkHttpMessages.fromOkHttp(request.headers()), bytes);
      transport = new OkHttpTransport(chain, sendable, outbound,
          body == null ? null : body.contentType(), body != null);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(TollgateInterceptor.WHERE, e);
      return chain.proceed(sendable);
    }
    CallResult<Response> result;
    try {
      result = mayPause ? gate.call(outbound, replayable, transport)
          : gate.callWithoutPausing(outbound, replayable, transport);
    } catch (OkHttpTransport.ProceedFailure e) {
      throw e.original();
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(TollgateInterceptor.WHERE, e);
      return transport.recover();
    }
    if (result instanceof CallResult.Forwarded<Response> forwarded) {
      Response response = transport.deliverable(forwarded.response());
      try {
        return tapped(response, forwarded.usage());
      } catch (RuntimeException | LinkageError e) {
        InternalFailures.record(TollgateInterceptor.WHERE, e);
        return response;
      }
    }
    try {
      return synthetic(((CallResult.Synthetic<Response>) result).response(), request);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(TollgateInterceptor.WHERE, e);
      return chain.proceed(sendable);
    }
  }

  /** The provider's response, its body passing every byte the app reads through {@code usage}. */
  static Response tapped(Response response, UsageObserver usage) {
    if (usage == UsageObserver.none()) {
      return response;
    }
    ResponseBody body = response.body();
    if (body == null) {
      usage.onEnd();
      return response;
    }
    return response.newBuilder().body(new TappedResponseBody(body, usage)).build();
  }

  /** Tollgate's answer as OkHttp would have delivered the provider's. */
  static Response synthetic(SyntheticResponse answer, Request request) {
    String contentType = answer.headers().first("content-type").orElse(null);
    long now = System.currentTimeMillis();
    return new Response.Builder()
        .request(request)
        .protocol(Protocol.HTTP_1_1)
        .code(answer.status())
        .message(OkHttpMessages.reason(answer.status()))
        .headers(OkHttpMessages.toOkHttp(answer.headers()))
        .body(ResponseBody.create(contentType == null ? null : MediaType.parse(contentType), answer.body()))
        .sentRequestAtMillis(now)
        .receivedResponseAtMillis(now)
        .build();
  }

  /**
   * The URL as a {@link URI}: parsed from its text, which OkHttp keeps canonical. Not {@code
   * HttpUrl.uri()} first: it re-encodes every part and compiles a pattern on each call, needed
   * only for the characters a {@code URI} refuses (and then used).
   */
  static URI uriOf(HttpUrl url) {
    try {
      return new URI(url.toString());
    } catch (URISyntaxException e) {
      return url.uri();
    }
  }

  private static byte[] bytesOf(RequestBody body) throws IOException {
    Buffer buffer = new Buffer();
    body.writeTo(buffer);
    return buffer.readByteArray();
  }

  /** Duplex bodies (HTTP/2 streaming both ways, OkHttp 3.14+) cannot be buffered: not touched. */
  private static boolean isDuplex(RequestBody body) {
    try {
      return body.isDuplex();
    } catch (NoSuchMethodError e) {
      return false;
    }
  }

  /** A one-shot body (OkHttp 3.14+) is written once, here; the app said it must not be re-sent. */
  private static boolean isOneShot(RequestBody body) {
    try {
      return body.isOneShot();
    } catch (NoSuchMethodError e) {
      return false;
    }
  }
}
