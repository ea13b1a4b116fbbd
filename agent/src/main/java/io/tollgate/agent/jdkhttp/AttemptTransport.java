package io.tollgate.agent.jdkhttp;

import io.tollgate.gate.AsyncTransport;
import io.tollgate.gate.UsageObserver;
import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;

/**
 * Sends each attempt the gate plans through the app's own client (its executor, proxy,
 * authenticator, cookies, HTTP version and connection pool): for the provider the app addressed,
 * the app's request with its body replayed from memory; for a fallback, a copy with the plan's
 * URL, headers (the fallback's own credential) and body. The attempt's response is held, its body
 * unread, until the gate decides whether the app gets it ({@link Attempt}).
 */
final class AttemptTransport<T> implements AsyncTransport<Attempt<T>> {

  private final HttpClient client;
  private final HttpRequest original;
  private final OutboundRequest outbound;
  private final boolean hasBody;
  /** A body held in part, sent once from the app's publisher; null when the body is in memory. */
  private final HeldRequestBody streamed;
  /** The last attempt not yet discarded: the app's answer if Tollgate fails after it. */
  private volatile Attempt<T> inHand;

  AttemptTransport(HttpClient client, HttpRequest original, OutboundRequest outbound,
      HeldRequestBody streamed) {
    this.client = client;
    this.original = original;
    this.outbound = outbound;
    this.hasBody = original.bodyPublisher().isPresent();
    this.streamed = streamed;
  }

  @Override
  public CompletableFuture<Attempt<T>> send(OutboundRequest plan) {
    Attempt<T> attempt = new Attempt<>();
    HttpRequest request = requestFor(plan);
    attempt.sent(JdkHttpHook.ownSend(() -> client.sendAsync(request, attempt)));
    inHand = attempt;
    // the gate's next step (limiter, breakers: Redis) must not run on the client's I/O thread
    return attempt.arrived().thenApplyAsync(arrived -> arrived);
  }

  @Override
  public int status(Attempt<T> response) {
    return response.info().statusCode();
  }

  @Override
  public Headers headers(Attempt<T> response) {
    return Headers.of(response.info().headers().map());
  }

  @Override
  public void discard(Attempt<T> response) {
    if (inHand == response) {
      inHand = null;
    }
    response.discard();
  }

  /**
   * After a failure of Tollgate's own: the response in hand as it is, else the app's request sent
   * unchanged (its body from memory: the app's publisher was read once already).
   */
  CompletableFuture<HttpResponse<T>> recover(HttpResponse.BodyHandler<T> handler) {
    Attempt<T> attempt = inHand;
    inHand = null;
    if (attempt != null) {
      return attempt.arrived().thenCompose(arrived -> arrived.deliver(handler, UsageObserver.none()));
    }
    HttpRequest request = requestFor(outbound);
    return JdkHttpHook.ownSend(() -> client.sendAsync(request, handler));
  }

  /** The app gave up on its future: so does the exchange in flight. */
  void cancel() {
    Attempt<T> attempt = inHand;
    if (attempt != null) {
      attempt.cancel();
    }
  }

  HttpRequest requestFor(OutboundRequest plan) {
    if (plan == outbound || plan.equals(outbound)) {
      if (!hasBody) {
        return original;
      }
      return streamed != null ? withBody(original, streamed) : withBody(original, plan.body());
    }
    HttpRequest.Builder copy = HttpRequest.newBuilder(original, (name, value) -> false)
        .uri(plan.uri());
    for (Headers.Field field : plan.headers().fields()) {
      copy.header(field.name(), field.value());
    }
    if (hasBody) {
      copy.method(plan.method(), HttpRequest.BodyPublishers.ofByteArray(plan.body()));
    }
    return copy.build();
  }

  /** {@code request} as it is (URL, headers, version, timeout), its body replayed from memory. */
  static HttpRequest withBody(HttpRequest request, byte[] body) {
    if (request.bodyPublisher().isEmpty()) {
      return request;
    }
    return withBody(request, HttpRequest.BodyPublishers.ofByteArray(body));
  }

  /** {@code request} as it is, its body published by {@code body}. */
  static HttpRequest withBody(HttpRequest request, HttpRequest.BodyPublisher body) {
    return HttpRequest.newBuilder(request, (name, value) -> true)
        .method(request.method(), body)
        .build();
  }
}
