package io.tollgate.gate;

import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;

/**
 * How a front end sends one attempt: exactly the request it is given, with its own HTTP client.
 * The gate drives limits, retries and fallback; the transport only sends and describes what came
 * back. {@code R} is the client's own response type (an OkHttp {@code Response}, a JDK
 * {@code HttpResponse}), handed back to the app unchanged when it is the answer.
 */
public interface Transport<R> {

  /** Sends {@code request} and returns once the response's status and headers have arrived. */
  R send(OutboundRequest request) throws IOException;

  int status(R response);

  Headers headers(R response);

  /** Frees a response the app will never see (a failed attempt about to be retried elsewhere). */
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
