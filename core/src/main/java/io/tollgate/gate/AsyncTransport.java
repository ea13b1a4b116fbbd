package io.tollgate.gate;

import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.util.concurrent.CompletableFuture;

/**
 * {@link Transport} for clients that answer with a future ({@code sendAsync}, {@code enqueue}). The
 * gate never blocks the thread that completes the future: waits are scheduled.
 */
public interface AsyncTransport<R> {

  /** Sends {@code request}; completes with the response once its status and headers arrived. */
  CompletableFuture<R> send(OutboundRequest request);

  int status(R response);

  Headers headers(R response);

  void discard(R response);

  /**
   * Keeps a failed response the gate may still answer with while it sends the next attempt to
   * another provider. A transport whose client must be done with a response before it sends again
   * reads its body into memory here, at most {@code tokens.max-buffered-body} bytes of it; when the
   * body is larger it keeps the bytes read in front of the rest, unread, and answers false: the
   * gate then answers with this response at once and tries no other provider. By default the
   * response is kept as it is (a client that can leave a body unread while it sends another request).
   *
   * @return false when the response cannot be kept: it is the answer
   */
  default boolean hold(R response) {
    return true;
  }
}
