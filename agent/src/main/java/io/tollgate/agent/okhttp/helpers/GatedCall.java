package io.tollgate.agent.okhttp.helpers;

import io.tollgate.agent.BodyPipe;
import io.tollgate.agent.BoundedBody;
import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.gate.UsageObserver;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.io.InputStream;
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
import okio.BufferedSink;
import okio.Okio;

/**
 * One OkHttp call to a watched host, through the gate: the request body buffered up to {@code
 * tokens.max-buffered-body} (the gate reads the prompt), a larger one held only in part and
 * streamed ({@link HeldRequestBody}); the answer turned back into an OkHttp response.
 */
final class GatedCall {

  private static final byte[] NO_BODY = new byte[0];

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
      if (body != null && isDuplex(body)) {
        return chain.proceed(request);
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(TollgateInterceptor.WHERE, e);
      return chain.proceed(request);
    }
    int bound = gate.config().tokens().maxBufferedBody();
    // The app's own body: what it throws is the app's, as if OkHttp had written it.
    BoundedBody read = body == null ? null : read(body, bound);
    try {
      return gated(gate, chain, request, uri, read, mayPause);
    } finally {
      if (read != null) {
        read.abandon(); // sent by now, or never to be: the app's writer must not wait on
      }
    }
  }

  private static Response gated(Gate gate, Interceptor.Chain chain, Request request, URI uri,
      BoundedBody read, boolean mayPause) throws IOException {
    RequestBody body = request.body();
    byte[] bytes = read == null ? NO_BODY : read.held();
    boolean whole = read == null || read.whole();
    boolean replayable = whole && (body == null || !isOneShot(body));
    Request sendable;
    if (!whole) {
      sendable = request.newBuilder().method(request.method(), new HeldRequestBody(body, read)).build();
    } else if (body == null || (replayable && body.contentLength() >= 0)) {
      sendable = request; // written again by OkHttp, as any body it retries
    } else {
      sendable = request.newBuilder()
          .method(request.method(), RequestBody.create(body.contentType(), bytes)).build();
    }

    OkHttpTransport transport;
    OutboundRequest outbound;
    try {
      outbound = whole
          ? OutboundRequest.of(request.method(), uri, OkHttpMessages.fromOkHttp(request.headers()), bytes)
          : OutboundRequest.withHeldPrefix(request.method(), uri,
              OkHttpMessages.fromOkHttp(request.headers()), bytes, read.streamed());
      transport = new OkHttpTransport(chain, sendable, outbound,
          body == null ? null : body.contentType(), body != null,
          gate.config().tokens().maxBufferedBody());
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

  /**
   * The app's body read up to {@code bound}: one of known length within it into memory, as OkHttp
   * would write it; any other through a {@link BodyPipe}, its writer on a thread of its own, so that
   * no more than the bound is ever taken from it before the call is decided.
   */
  private static BoundedBody read(RequestBody body, int bound) throws IOException {
    long length = body.contentLength();
    if (length >= 0 && length <= bound) {
      Buffer buffer = new Buffer();
      body.writeTo(buffer);
      return BoundedBody.read(buffer.inputStream(), Math.max(bound, (int) buffer.size()), length);
    }
    InputStream written = BodyPipe.start(out -> {
      BufferedSink sink = Okio.buffer(Okio.sink(out));
      body.writeTo(sink);
      sink.flush();
    });
    return BoundedBody.read(written, bound, length);
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
