package io.tollgate.agent.jdkhttp;

import io.tollgate.gate.AsyncTransport;
import io.tollgate.gate.UsageObserver;
import io.tollgate.llm.Headers;
import io.tollgate.router.CrossOriginHeaders;
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
 * unread, until the gate decides whether the app gets it ({@link Attempt}). A client that follows
 * redirects is replaced by its twin that does not, and Tollgate follows them ({@link Redirects}):
 * no credential leaves the attempt's origin.
 */
final class AttemptTransport<T> implements AsyncTransport<Attempt<T>> {

  private final HttpClient client;
  /** {@link #client}, or its twin that follows no redirect when it does. */
  private final HttpClient sender;
  private final CrossOriginHeaders leaving;
  private final HttpRequest original;
  private final OutboundRequest outbound;
  private final boolean hasBody;
  /** A body held in part, sent once from the app's publisher; null when the body is in memory. */
  private final HeldRequestBody streamed;
  /** The last attempt not yet discarded: the app's answer if Tollgate fails after it. */
  private volatile Attempt<T> inHand;

  AttemptTransport(HttpClient client, HttpRequest original, OutboundRequest outbound,
      CrossOriginHeaders leaving, HeldRequestBody streamed) {
    this.client = client;
    this.sender = Redirects.sender(client);
    this.leaving = leaving;
    this.original = original;
    this.outbound = outbound;
    this.hasBody = original.bodyPublisher().isPresent();
    this.streamed = streamed;
  }

  @Override
  public CompletableFuture<Attempt<T>> send(OutboundRequest plan) {
    HttpRequest request = requestFor(plan);
    return send(request, new Redirects(client.followRedirects(), request, leaving));
  }

  /** {@code request}, then each redirect the app's client would follow, to the last response. */
  private CompletableFuture<Attempt<T>> send(HttpRequest request, Redirects redirects) {
    Attempt<T> attempt = new Attempt<>();
    attempt.sent(JdkHttpHook.ownSend(() -> sender.sendAsync(request, attempt)));
    inHand = attempt;
    // the gate's next step (limiter, breakers: Redis) must not run on the client's I/O thread
    return attempt.arrived().thenComposeAsync(arrived -> {
      HttpRequest next = sender == client ? null : redirects.next(request, arrived.info());
      if (next == null || (streamed != null && carriesBody(next))) {
        // a body streamed from the app's publisher went once: the app gets the redirect itself
        return CompletableFuture.completedFuture(arrived);
      }
      discard(arrived);
      return send(next, redirects);
    });
  }

  private static boolean carriesBody(HttpRequest request) {
    return request.bodyPublisher().map(publisher -> publisher.contentLength() != 0).orElse(false);
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
    // a redirect is not followed here: the app gets it rather than a credential leaving
    return JdkHttpHook.ownSend(() -> sender.sendAsync(request, handler));
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
