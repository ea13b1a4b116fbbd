package io.tollgate.agent.jdkhttp;

import io.tollgate.gate.UsageObserver;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One attempt the gate sent: its status and headers as soon as they arrive, its body held unread
 * ({@link HeldBody}) until the gate either hands the response to the app ({@link #deliver}) or
 * drops it ({@link #discard}). The attempt is its own {@code BodyHandler}: the client calls it
 * with the response's status and headers, before the first byte of the body.
 */
final class Attempt<T> implements HttpResponse.BodyHandler<T> {

  private final CompletableFuture<Attempt<T>> arrived = new CompletableFuture<>();
  private volatile HttpResponse.ResponseInfo info;
  private volatile HeldBody<T> body;
  private volatile CompletableFuture<HttpResponse<T>> response;

  @Override
  public HttpResponse.BodySubscriber<T> apply(HttpResponse.ResponseInfo responseInfo) {
    HeldBody<T> held = new HeldBody<>();
    body = held;
    info = responseInfo;
    arrived.complete(this);
    return held;
  }

  /** The client's future for this attempt: its failure before the headers fails the attempt. */
  void sent(CompletableFuture<HttpResponse<T>> future) {
    response = future;
    future.whenComplete((done, error) -> {
      if (error != null) {
        arrived.completeExceptionally(error instanceof CompletionException && error.getCause() != null
            ? error.getCause() : error);
      }
    });
  }

  /** Completes with this attempt once its status and headers are in, or with the client's failure. */
  CompletableFuture<Attempt<T>> arrived() {
    return arrived;
  }

  HttpResponse.ResponseInfo info() {
    return info;
  }

  /**
   * Hands the response to the app: its body goes to the subscriber of the app's own handler, every
   * buffer also fed to {@code usage}. Completes as the client's {@code sendAsync} would have.
   */
  CompletableFuture<HttpResponse<T>> deliver(HttpResponse.BodyHandler<T> handler, UsageObserver usage) {
    HttpResponse.BodySubscriber<T> subscriber;
    try {
      subscriber = handler.apply(info);
    } catch (RuntimeException | Error e) {
      // the app's handler refused the response: the app sees that, as without Tollgate
      body.discard();
      usage.onError(e);
      return CompletableFuture.failedFuture(e);
    }
    body.deliverTo(subscriber, usage);
    return response;
  }

  /** The app will never see this response: its body is not read, its exchange ends. */
  void discard() {
    HeldBody<T> held = body;
    if (held != null) {
      held.discard();
    }
  }

  /** The app gave up on the call. */
  void cancel() {
    CompletableFuture<HttpResponse<T>> future = response;
    if (future != null) {
      future.cancel(true);
    }
    discard();
  }
}
