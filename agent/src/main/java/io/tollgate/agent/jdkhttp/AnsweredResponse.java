package io.tollgate.agent.jdkhttp;

import io.tollgate.llm.SyntheticResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLSession;

/**
 * The {@code HttpResponse} the app gets for a provider call: the answer to the request it made
 * ({@link #request()} is the app's own, never the copy Tollgate sent, which may carry a fallback's
 * credential), or Tollgate's own answer with its body converted by the app's own handler.
 */
record AnsweredResponse<T>(int statusCode, HttpRequest request,
    Optional<HttpResponse<T>> previousResponse, HttpHeaders headers, T body,
    Optional<SSLSession> sslSession, URI uri, HttpClient.Version version)
    implements HttpResponse<T> {

  /** {@code response}, a provider's, as the answer to the app's {@code request}. */
  static <T> HttpResponse<T> of(HttpRequest request, HttpResponse<T> response) {
    return new AnsweredResponse<>(response.statusCode(), request, response.previousResponse(),
        response.headers(), response.body(), response.sslSession(), response.uri(),
        response.version());
  }

  /**
   * Tollgate's answer (a 429 when limited) as the client would have delivered the provider's: the
   * body goes through the subscriber of the app's {@code handler}, so a {@code String}, a byte
   * array, an {@code InputStream} or lines, as the app asked.
   */
  static <T> CompletableFuture<HttpResponse<T>> synthetic(SyntheticResponse answer,
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    HttpHeaders headers = HttpHeaders.of(answer.headers().toMap(), (name, value) -> true);
    HttpClient.Version version = HttpClient.Version.HTTP_1_1;
    HttpResponse.BodySubscriber<T> subscriber =
        handler.apply(new Info(answer.status(), headers, version));
    subscriber.onSubscribe(new OneBuffer(subscriber, answer.body()));
    CompletableFuture<HttpResponse<T>> response = new CompletableFuture<>();
    subscriber.getBody().whenComplete((body, error) -> {
      if (error != null) {
        response.completeExceptionally(error);
      } else {
        response.complete(new AnsweredResponse<>(answer.status(), request, Optional.empty(),
            headers, body, Optional.empty(), request.uri(), version));
      }
    });
    return response;
  }

  /** As the JDK's own responses print. */
  @Override
  public String toString() {
    return "(" + request.method() + " " + request.uri() + ") " + statusCode;
  }

  private record Info(int statusCode, HttpHeaders headers, HttpClient.Version version)
      implements HttpResponse.ResponseInfo {}

  /** Publishes a body held in memory in one buffer. */
  private static final class OneBuffer implements Flow.Subscription {
    private final Flow.Subscriber<? super List<ByteBuffer>> subscriber;
    private final byte[] body;
    private boolean done;

    OneBuffer(Flow.Subscriber<? super List<ByteBuffer>> subscriber, byte[] body) {
      this.subscriber = subscriber;
      this.body = body;
    }

    @Override
    public void request(long n) {
      if (done) {
        return;
      }
      done = true;
      if (n <= 0) {
        subscriber.onError(new IllegalArgumentException("non-positive request: " + n));
        return;
      }
      if (body.length > 0) {
        subscriber.onNext(List.of(ByteBuffer.wrap(body)));
      }
      subscriber.onComplete();
    }

    @Override
    public void cancel() {
      done = true;
    }
  }
}
