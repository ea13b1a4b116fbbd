package io.tollgate.agent.jdkhttp;

import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.gate.Tenants;
import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * One JDK {@code HttpClient} call to a provider, through the gate's asynchronous path for
 * {@code send} and {@code sendAsync} alike: a limited call waits (on-limit: wait) on a scheduler,
 * never on a thread; {@code send} only waits for the answer, as it always does. The request body
 * is read first, up to {@code tokens.max-buffered-body} ({@link HeldRequestBody}): a larger one is
 * held in part and the rest streams from the app's publisher when the request is sent, once.
 */
final class GatedExchange<T> {

  private final HttpRequest request;
  private final HttpResponse.BodyHandler<T> handler;
  private final OutboundRequest outbound;
  private final AttemptTransport<T> transport;
  private final HeldRequestBody body;

  private GatedExchange(Gate gate, HttpClient client, HttpRequest request,
      HttpResponse.BodyHandler<T> handler, HeldRequestBody body) {
    this.request = request;
    this.handler = handler;
    this.body = body;
    Headers headers = Headers.of(request.headers().map());
    this.outbound = body.whole()
        ? OutboundRequest.of(request.method(), request.uri(), headers, body.bytes())
        : OutboundRequest.withHeldPrefix(request.method(), request.uri(), headers, body.bytes(),
            body.streamed());
    this.transport = new AttemptTransport<>(client, request, outbound, gate.crossOriginHeaders(),
        body.whole() ? null : body);
  }

  /**
   * The app's answer, or null when the call must proceed as the app made it: not a provider's URL,
   * the app's body failing, or a failure of Tollgate before anything was sent.
   */
  static <T> CompletableFuture<HttpResponse<T>> start(Gate gate, HttpClient client,
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    CompletableFuture<HeldRequestBody> body;
    try {
      if (gate.providerFor(request.uri()).isEmpty()) {
        return null;
      }
      body = RequestBodies.read(request, gate.config().tokens().maxBufferedBody());
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(JdkHttpHook.WHERE, e);
      return null;
    }
    if (body.isCompletedExceptionally()) {
      return null; // the app's own body failed: the client's send reports it as it always does
    }
    if (body.isDone()) {
      return through(gate, client, request, handler, body.join());
    }
    // A body published asynchronously: sendAsync must not wait for it. The gate is entered on
    // the publisher's thread, for the tenant (and user) bound here, on the app's thread.
    Optional<String> tenant = Tenants.current();
    Optional<String> user = Tenants.currentUser();
    return body.handle((held, error) -> error != null
            ? JdkHttpHook.ownSend(() -> client.sendAsync(request, handler))
            : forTenant(tenant, user, () -> through(gate, client, request, handler, held)))
        .thenCompose(answer -> answer);
  }

  private static <V> V forTenant(Optional<String> tenant, Optional<String> user, Supplier<V> work) {
    if (tenant.isEmpty()) {
      return work.get();
    }
    try (Tenants.Scope bound = Tenants.bind(tenant.get(), user.orElse(null))) {
      return work.get();
    }
  }

  private static <T> CompletableFuture<HttpResponse<T>> through(Gate gate, HttpClient client,
      HttpRequest request, HttpResponse.BodyHandler<T> handler, HeldRequestBody body) {
    GatedExchange<T> exchange;
    try {
      exchange = new GatedExchange<>(gate, client, request, handler, body);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(JdkHttpHook.WHERE, e);
      // the app's body is read: it goes as the copy the client would have sent
      return JdkHttpHook.ownSend(() -> client.sendAsync(body.whole()
          ? AttemptTransport.withBody(request, body.bytes()) : AttemptTransport.withBody(request, body),
          handler));
    }
    CompletableFuture<HttpResponse<T>> answer = exchange.run(gate);
    // sent by the time an answer is had, or never to be: the app's publisher is let go
    answer.whenComplete((response, error) -> body.abandon());
    return answer;
  }

  private CompletableFuture<HttpResponse<T>> run(Gate gate) {
    CompletableFuture<CallResult<Attempt<T>>> result;
    try {
      // a body in memory can always be sent again, to a fallback; one held in part only once
      result = gate.callAsync(outbound, body.whole(), transport);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(JdkHttpHook.WHERE, e);
      return transport.recover(handler);
    }
    CompletableFuture<HttpResponse<T>> answer = result.handle((done, error) -> {
      if (error == null) {
        try {
          return answer(done);
        } catch (RuntimeException | LinkageError e) {
          InternalFailures.record(JdkHttpHook.WHERE, e);
          return transport.recover(handler);
        }
      }
      Throwable cause = error instanceof CompletionException && error.getCause() != null
          ? error.getCause() : error;
      if (cause instanceof IOException || cause instanceof CancellationException) {
        // no provider answered at all: the client's own failure, as the app would have had it;
        // or the app cancelled (the gate gave the reservation back): nothing more to send
        return CompletableFuture.<HttpResponse<T>>failedFuture(cause);
      }
      InternalFailures.record(JdkHttpHook.WHERE, cause);
      return transport.recover(handler);
    }).thenCompose(response -> response);
    answer.whenComplete((response, error) -> {
      if (error instanceof CancellationException) {
        transport.cancel();
      }
    });
    return answer;
  }

  private CompletableFuture<HttpResponse<T>> answer(CallResult<Attempt<T>> result) {
    if (result instanceof CallResult.Forwarded<Attempt<T>> forwarded) {
      return forwarded.response().deliver(handler, forwarded.usage())
          .thenApply(response -> AnsweredResponse.of(request, response));
    }
    return AnsweredResponse.synthetic(((CallResult.Synthetic<Attempt<T>>) result).response(),
        request, handler);
  }
}
