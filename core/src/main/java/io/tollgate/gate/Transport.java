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
}
