package io.tollgate.agent.apache5.helpers;

import io.tollgate.agent.AgentGates;
import io.tollgate.agent.AsyncSteps;
import io.tollgate.agent.GatedRequests;
import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import io.tollgate.router.StreamedBody;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.core5.concurrent.BasicFuture;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpVersion;
import org.apache.hc.core5.http.impl.BasicEntityDetails;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.hc.core5.http.nio.AsyncPushConsumer;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.HandlerFactory;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * One async HttpClient 5 execution ({@code doExecute}) to a watched host, through the gate's
 * asynchronous path: no thread of the app or the client ever waits (waits and the switch-over
 * jitter are scheduled, the gate's steps that may block run on {@link AsyncSteps}), the app's
 * future and callback complete with what its own response consumer made of the answer.
 */
public final class Async5Execution {

  static final String WHERE = "apache-httpclient-5.async";

  private Async5Execution() {}

  /** What the advice on {@code doExecute} calls, with every value as an object. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Object handle(Object client, Object target, Object producer, Object consumer,
      Object push, Object context, Object callback) {
    return handle((CloseableHttpAsyncClient) client, (HttpHost) target,
        (AsyncRequestProducer) producer, (AsyncResponseConsumer) consumer,
        (HandlerFactory<AsyncPushConsumer>) push, (HttpContext) context, (FutureCallback) callback);
  }

  /**
   * Called on entry to {@code doExecute}.
   *
   * @return null to let the client run the call itself; else the {@code Future} to return
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Object handle(CloseableHttpAsyncClient client, HttpHost target,
      AsyncRequestProducer producer, AsyncResponseConsumer consumer,
      HandlerFactory<AsyncPushConsumer> push, HttpContext context, FutureCallback callback) {
    if (Async5Transport.sending()) {
      return null; // one of Tollgate's own attempts
    }
    Gate gate;
    RequestCapture request;
    try {
      gate = AgentGates.gate();
      if (gate == null || producer == null || consumer == null
          || (target != null && !gate.watchesHost(target.getHostName()))) {
        return null;
      }
      // the target is often left to the request: its head tells the host
      request = RequestCapture.head(producer, context);
      if (request == null) {
        return null;
      }
    } catch (HttpException | IOException | RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return null;
    }
    Object answer = null;
    try {
      String host = Classic5Messages.hostOf(target, request.request());
      if (host != null && gate.watchesHost(host)) {
        answer = run(gate, client, target, producer, request, consumer, push, context, callback);
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
    }
    return answer != null ? answer
        : passedOn(client, target, producer, request, consumer, push, context, callback);
  }

  /**
   * A call the gate does not take, its head already read: a repeatable producer starts over, so
   * the client runs it itself (null); any other, or one whose body was read in part, is sent with
   * the head and the bytes read, never asked for them twice.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object passedOn(CloseableHttpAsyncClient client, HttpHost target,
      AsyncRequestProducer producer, RequestCapture request, AsyncResponseConsumer consumer,
      HandlerFactory<AsyncPushConsumer> push, HttpContext context, FutureCallback callback) {
    if (producer.isRepeatable() && !request.partlyRead()) {
      return null;
    }
    return Async5Transport.passThrough(client, target, request.streamed(producer), consumer, push,
        context, callback);
  }

  /** The call through {@code gate}; what {@link #handle} returns. */
  static Future<Object> run(Gate gate, CloseableHttpAsyncClient client, HttpHost target,
      AsyncRequestProducer producer, RequestCapture request, AsyncResponseConsumer<Object> consumer,
      HandlerFactory<AsyncPushConsumer> push, HttpContext context, FutureCallback<Object> callback) {
    Async5Transport transport;
    OutboundRequest outbound;
    byte[] body;
    boolean streamed;
    try {
      URI uri = Classic5Messages.uriOf(target, request.request());
      EntityDetails described = request.details();
      if (gate.providerFor(uri).isEmpty()) {
        return null;
      }
      body = request.body(producer, gate.config().tokens().maxBufferedBody());
      streamed = body == null;
      // A body that is not read whole first (a streamed one, or one larger than
      // tokens.max-buffered-body) is limited with what is known: one request, its size's worth of
      // prompt tokens (bytes / 4: declared, else counted as it is produced; the settle uses every
      // byte produced), the output cap read from what was read of it, else the default output
      // estimate, settled from the answer's usage as any other. It is sent once, as the app
      // produces it: never to a fallback, never again.
      StreamedBody counted = streamed
          ? StreamedBody.ofLength(described == null ? -1 : described.getContentLength()) : null;
      outbound = streamed
          ? OutboundRequest.withHeldPrefix(request.request().getMethod(), uri,
              Classic5Messages.headersOf(request.request()), request.held(), counted)
          : OutboundRequest.of(request.request().getMethod(), uri,
              Classic5Messages.headersOf(request.request()), body);
      transport = new Async5Transport(client, target, request.request(), described,
          streamed ? request.streamed(producer, counted) : null, push, context, outbound,
          gate.crossOriginHeaders(), gate.config().tokens().maxBufferedBody());
    } catch (URISyntaxException | IOException | RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return null; // a repeatable producer was reset: the app's request goes as it was
    }
    BasicFuture<Object> future = new BasicFuture<>(callback);
    Delivery delivery = new Delivery(transport, body, consumer, context, future);
    try {
      // every step that may block (the estimate, reserves, the decision on an answer, which may
      // reserve on a fallback) runs on Tollgate's threads: the app's thread and the client's I/O
      // threads only hand work over
      gate.callAsync(outbound, !streamed, transport, AsyncSteps.executor())
          .whenComplete(delivery::deliver);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      delivery.original();
    }
    return future;
  }

  /** Hands the gate's outcome to the app's consumer and future. */
  private static final class Delivery {
    private final Async5Transport transport;
    private final byte[] body;
    private final AsyncResponseConsumer<Object> consumer;
    private final HttpContext context;
    private final BasicFuture<Object> future;

    Delivery(Async5Transport transport, byte[] body, AsyncResponseConsumer<Object> consumer,
        HttpContext context, BasicFuture<Object> future) {
      this.transport = transport;
      this.body = body;
      this.consumer = consumer;
      this.context = context;
      this.future = future;
    }

    void deliver(CallResult<AsyncAttempt> result, Throwable error) {
      if (error != null) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null
            ? error.getCause() : error;
        if (transport.isClientFailure(cause)) {
          fail(cause instanceof Exception ? (Exception) cause : new IOException(cause));
        } else {
          InternalFailures.record(WHERE, cause);
          original();
        }
        return;
      }
      try {
        if (result instanceof CallResult.Forwarded<AsyncAttempt> forwarded) {
          forwarded.response().forwardTo(consumer, forwarded.usage(), new Done(future));
        } else {
          transport.releaseUnsent(); // a streamed body Tollgate answered for: never produced
          synthetic(((CallResult.Synthetic<AsyncAttempt>) result).response());
        }
      } catch (HttpException | IOException e) {
        fail(e); // the app's consumer refused the answer, as it would have the provider's
      } catch (RuntimeException | LinkageError e) {
        InternalFailures.record(WHERE, e);
        if (!future.isDone()) {
          fail(e instanceof Exception ? (Exception) e : new IllegalStateException(e));
        }
      }
    }

    /** Tollgate's answer, fed to the app's consumer as the client would feed the provider's. */
    private void synthetic(SyntheticResponse answer) throws HttpException, IOException {
      BasicHttpResponse response = new BasicHttpResponse(answer.status(),
          GatedRequests.reason(answer.status()));
      response.setVersion(HttpVersion.HTTP_1_1);
      for (Headers.Field field : answer.headers().fields()) {
        response.addHeader(field.name(), field.value());
      }
      String contentType = answer.headers().first("content-type").orElse(null);
      EntityDetails details = new BasicEntityDetails(answer.bodyLength(),
          contentType == null ? null : ContentType.parse(contentType));
      consumer.consumeResponse(response, details, context, new Done(future));
      consumer.updateCapacity(increment -> { });
      ByteBuffer bytes = ByteBuffer.wrap(answer.body());
      consumer.consume(bytes);
      consumer.streamEnd(null);
      consumer.releaseResources();
    }

    /**
     * After a failure of ours: the app's request as it was, to its own consumer; a streamed body
     * already sent cannot be, and the app's future fails.
     */
    void original() {
      try {
        transport.sendOriginal(body, consumer, new Done(future));
      } catch (RuntimeException | LinkageError e) {
        fail(e instanceof Exception ? (Exception) e : new IllegalStateException(e));
      }
    }

    private void fail(Exception cause) {
      try {
        consumer.failed(cause);
        consumer.releaseResources();
      } finally {
        future.failed(cause);
      }
    }
  }

  /** Completes the app's future (and so its callback). */
  private static final class Done implements FutureCallback<Object> {
    private final BasicFuture<Object> future;

    Done(BasicFuture<Object> future) {
      this.future = future;
    }

    @Override
    public void completed(Object result) {
      future.completed(result);
    }

    @Override
    public void failed(Exception cause) {
      future.failed(cause);
    }

    @Override
    public void cancelled() {
      future.cancel();
    }
  }
}
