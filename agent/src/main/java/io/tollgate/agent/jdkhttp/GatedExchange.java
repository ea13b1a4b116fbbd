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
 * is read into memory first (LLM requests are small; the gate reads the prompt).
 */
final class GatedExchange<T> {

  /**
   * A body announced larger than this (a file or audio upload to the provider's host) is not
   * read: the call passes untouched, as a call Tollgate does not limit.
   */
  static final long MAX_BUFFERED_BODY = 16L * 1024 * 1024;

  private final HttpRequest request;
  private final HttpResponse.BodyHandler<T> handler;
  private final OutboundRequest outbound;
  private final AttemptTransport<T> transport;

  private GatedExchange(Gate gate, HttpClient client, HttpRequest request,
      HttpResponse.BodyHandler<T> handler, byte[] body) {
    this.request = request;
    this.handler = handler;
    this.outbound = OutboundRequest.of(request.method(), request.uri(),
        Headers.of(request.headers().map()), body);
    this.transport = new AttemptTransport<>(client, request, outbound, gate.crossOriginHeaders());
  }

  /**
   * The app's answer, or null when the call must proceed as the app made it: not a provider's URL,
   * a body too large to read, the app's body failing, or a failure of Tollgate before anything was
   * sent.
   */
  static <T> CompletableFuture<HttpResponse<T>> start(Gate gate, HttpClient client,
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    CompletableFuture<byte[]> body;
    try {
      if (gate.providerFor(request.uri()).isEmpty() || request.bodyPublisher()
          .map(publisher -> publisher.contentLength() > MAX_BUFFERED_BODY).orElse(false)) {
        return null;
      }
      body = RequestBodies.read(request);
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
    // the publisher's thread, for the tenant bound here, on the app's thread.
    Optional<String> tenant = Tenants.current();
    return body.handle((bytes, error) -> error != null
            ? JdkHttpHook.ownSend(() -> client.sendAsync(request, handler))
            : forTenant(tenant, () -> through(gate, client, request, handler, bytes)))
        .thenCompose(answer -> answer);
  }

  private static <V> V forTenant(Optional<String> tenant, Supplier<V> work) {
    if (tenant.isEmpty()) {
      return work.get();
    }
    try (Tenants.Scope bound = Tenants.bind(tenant.get())) {
      return work.get();
    }
  }

  private static <T> CompletableFuture<HttpResponse<T>> through(Gate gate, HttpClient client,
      HttpRequest request, HttpResponse.BodyHandler<T> handler, byte[] body) {
    GatedExchange<T> exchange;
    try {
      exchange = new GatedExchange<>(gate, client, request, handler, body);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(JdkHttpHook.WHERE, e);
      // the app's body is read: it goes as the copy the client would have sent
      return JdkHttpHook.ownSend(() -> client.sendAsync(
          AttemptTransport.withBody(request, body), handler));
    }
    return exchange.run(gate);
  }

  private CompletableFuture<HttpResponse<T>> run(Gate gate) {
    CompletableFuture<CallResult<Attempt<T>>> result;
    try {
      // the body is in memory, so it can always be sent again, to a fallback
      result = gate.callAsync(outbound, true, transport);
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
