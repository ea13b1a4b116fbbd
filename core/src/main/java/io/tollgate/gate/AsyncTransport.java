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
}
