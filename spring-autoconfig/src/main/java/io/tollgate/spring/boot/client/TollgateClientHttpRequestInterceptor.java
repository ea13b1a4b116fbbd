package io.tollgate.spring.boot.client;

import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import io.tollgate.router.StreamedBody;
import java.net.URI;
import java.util.Arrays;
import java.util.Objects;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Puts the {@code RestClient} and {@code RestTemplate} calls to configured providers through the
 * {@link Gate}, with the agent's semantics: limits, fallback with the fallback's own credential,
 * settle from the body as the app reads it, a synthetic provider-shaped answer (a 429) returned as
 * an ordinary response. Calls to any other host pass on untouched after one host comparison.
 *
 * <p>The body is already in memory here (Spring buffers it for interceptors), so every call up to
 * {@code tokens.max-buffered-body} can be sent again to a fallback; a larger one is estimated from
 * its length and sent once, to the provider addressed.
 *
 * <p>A failure of Tollgate's own code (the gate, or the app's limiter bean, throwing) never
 * reaches the app: before anything was sent the request goes on as if Tollgate were absent; after,
 * the app gets the client's answer in hand, or what the client threw, and nothing is sent again
 * ({@link InternalFailures}). What the rest of the chain throws is the app's, passed on as it is.
 */
public final class TollgateClientHttpRequestInterceptor implements ClientHttpRequestInterceptor {

  static final String WHERE = "rest-client";

  private final Gate gate;

  public TollgateClientHttpRequestInterceptor(Gate gate) {
    this.gate = Objects.requireNonNull(gate, "gate");
  }

  @Override
  public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
      throws IOException {
    URI uri = request.getURI();
    RestTransport transport;
    OutboundRequest outbound;
    try {
      if (uri.getHost() == null || !gate.watchesHost(uri.getHost()) || gate.providerFor(uri).isEmpty()) {
        transport = null;
        outbound = null;
      } else {
        outbound = outbound(request, uri, body, gate.config().tokens().maxBufferedBody());
        transport = new RestTransport(request, body, outbound, execution, gate.crossOriginHeaders());
      }
    } catch (RuntimeException | Error e) {
      InternalFailures.shared().record(WHERE, e);
      return execution.execute(request, body);
    }
    if (transport == null) {
      return execution.execute(request, body);
    }
    CallResult<ClientHttpResponse> result;
    try {
      // a body over the bound is Spring's to hold, not Tollgate's: sent once, to the provider addressed
      result = gate.call(outbound, outbound.streamedBody().isEmpty(), transport);
    } catch (IOException e) {
      transport.closeParked();
      throw e; // the client's own: no provider answered at all
    } catch (RuntimeException | Error e) {
      if (transport.isClientFailure(e)) {
        transport.closeParked();
        throw e;
      }
      InternalFailures.shared().record(WHERE, e);
      return transport.recover();
    }
    ClientHttpResponse answer;
    try {
      answer = result instanceof CallResult.Forwarded<ClientHttpResponse> forwarded
          ? ObservedClientHttpResponse.of(forwarded.response(), forwarded.usage())
          : new SyntheticClientHttpResponse(((CallResult.Synthetic<ClientHttpResponse>) result).response());
    } catch (RuntimeException | Error e) {
      InternalFailures.shared().record(WHERE, e);
      return transport.recover();
    }
    transport.closeParked();
    return answer;
  }

  /**
   * The call as the gate sees it: a body up to {@code bound} whole; of a larger one only its first
   * bound + 1 bytes, the prompt estimated from its length (Spring holds the body; Tollgate keeps no
   * copy of it beyond the bound, and counts no more of it than that).
   */
  private static OutboundRequest outbound(HttpRequest request, URI uri, byte[] body, int bound) {
    if (body.length <= bound) {
      return OutboundRequest.of(request.getMethod().name(), uri, SpringHeaders.toCore(request.getHeaders()), body);
    }
    return OutboundRequest.withHeldPrefix(request.getMethod().name(), uri,
        SpringHeaders.toCore(request.getHeaders()), Arrays.copyOf(body, bound + 1),
        StreamedBody.ofLength(body.length));
  }
}
