package io.tollgate.agent.jdkhttp;

import java.net.http.HttpRequest;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Reads a request's body publisher the way the client would, up to {@code
 * tokens.max-buffered-body} ({@link HeldRequestBody}). The JDK's own publishers ({@code ofString},
 * {@code ofByteArray}, {@code ofFile}, {@code ofInputStream}) publish on the subscribing thread,
 * so the future is usually complete on return.
 */
final class RequestBodies {

  private RequestBodies() {}

  /** The body read up to {@code bound}; a request without one reads as an empty whole body. */
  static CompletableFuture<HeldRequestBody> read(HttpRequest request, int bound) {
    Optional<HttpRequest.BodyPublisher> publisher = request.bodyPublisher();
    if (publisher.isEmpty()) {
      return CompletableFuture.completedFuture(HeldRequestBody.none());
    }
    return HeldRequestBody.read(publisher.get(), bound);
  }
}
