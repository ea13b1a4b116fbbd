package io.tollgate.spring.boot.client;

import io.tollgate.gate.AttachedAgent;
import io.tollgate.gate.Tenants;
import io.tollgate.gate.Transport;
import io.tollgate.llm.Headers;
import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Sends each attempt the gate plans down the rest of the client's chain: the app's own request for
 * the provider it addressed, a {@link PlannedHttpRequest} for a fallback; a redirect of either is
 * followed by {@link ProviderRedirects} when the client's factory leaves it to Tollgate.
 *
 * <p>It keeps what the client answered, for a failure of Tollgate's own code ({@link #recover}):
 * the last response until the gate discards it, and the last one discarded until the next attempt
 * or the end of the call (so that an answer the app could get is not closed under it), and what
 * the client threw (the app's to see, never taken for Tollgate's).
 */
final class RestTransport implements Transport<ClientHttpResponse> {

  private final HttpRequest original;
  private final byte[] body;
  private final OutboundRequest outbound;
  private final ClientHttpRequestExecution execution;
  private final CrossOriginHeaders leaving;
  private boolean sent;
  /** The last response the client answered, until the gate discards it. */
  private ClientHttpResponse open;
  /** The last response the gate discarded, closed at the next attempt or the end. */
  private ClientHttpResponse parked;
  /** What the client threw for the last attempt that failed. */
  private Throwable clientFailure;

  RestTransport(HttpRequest original, byte[] body, OutboundRequest outbound, ClientHttpRequestExecution execution,
      CrossOriginHeaders leaving) {
    this.original = original;
    this.leaving = leaving;
    this.body = body;
    this.outbound = outbound;
    this.execution = execution;
  }

  @Override
  public ClientHttpResponse send(OutboundRequest plan) throws IOException {
    closeParked();
    sent = true;
    ClientHttpResponse response;
    try (Tenants.Scope gated = AttachedAgent.sendingGatedCall()) { // an attached agent lets it pass
      response = plan == outbound ? ProviderRedirects.send(original, body, execution, leaving)
          : ProviderRedirects.send(new PlannedHttpRequest(plan, original.getAttributes()), plan.body(), execution, leaving);
    } catch (IOException | RuntimeException | Error e) {
      clientFailure = e;
      throw e;
    }
    open = response;
    return response;
  }

  @Override
  public int status(ClientHttpResponse response) {
    try {
      return response.getStatusCode().value();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Headers headers(ClientHttpResponse response) {
    return SpringHeaders.toCore(response.getHeaders());
  }

  @Override
  public void discard(ClientHttpResponse response) {
    if (response == open) {
      open = null;
    }
    if (response != parked) {
      closeParked();
      parked = response;
    }
  }

  /** True when {@code error} is what the client threw: the app's own, passed on as it is. */
  boolean isClientFailure(Throwable error) {
    return error == clientFailure;
  }

  /** The call ended normally: a response discarded but kept is closed now. */
  void closeParked() {
    ClientHttpResponse discarded = parked;
    parked = null;
    if (discarded != null) {
      discarded.close();
    }
  }

  /**
   * After a failure of Tollgate's own code: nothing sent yet, the app's request goes as it was;
   * else the client's answer in hand (the last response, else the last one discarded), else what
   * the client threw. A request already sent is never sent again.
   */
  ClientHttpResponse recover() throws IOException {
    if (!sent) {
      return execution.execute(original, body);
    }
    ClientHttpResponse inHand = open != null ? open : parked;
    if (inHand != null) {
      if (inHand != parked) {
        closeParked();
      }
      open = null;
      parked = null;
      return inHand;
    }
    if (clientFailure instanceof IOException io) {
      throw io;
    }
    if (clientFailure instanceof RuntimeException runtime) {
      throw runtime;
    }
    throw (Error) clientFailure; // sent: either a response or a failure was had
  }
}
