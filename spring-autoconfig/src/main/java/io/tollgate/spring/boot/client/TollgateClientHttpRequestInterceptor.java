package io.tollgate.spring.boot.client;

import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.net.URI;
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
 * <p>The body is already in memory here (Spring buffers it for interceptors), so every call can be
 * sent again to a fallback.
 */
public final class TollgateClientHttpRequestInterceptor implements ClientHttpRequestInterceptor {

  private final Gate gate;

  public TollgateClientHttpRequestInterceptor(Gate gate) {
    this.gate = Objects.requireNonNull(gate, "gate");
  }

  @Override
  public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
      throws IOException {
    URI uri = request.getURI();
    if (uri.getHost() == null || !gate.watchesHost(uri.getHost()) || gate.providerFor(uri).isEmpty()) {
      return execution.execute(request, body);
    }
    OutboundRequest outbound = OutboundRequest.of(request.getMethod().name(), uri,
        SpringHeaders.toCore(request.getHeaders()), body);
    CallResult<ClientHttpResponse> result =
        gate.call(outbound, true, new RestTransport(request, body, outbound, execution));
    if (result instanceof CallResult.Forwarded<ClientHttpResponse> forwarded) {
      return ObservedClientHttpResponse.of(forwarded.response(), forwarded.usage());
    }
    return new SyntheticClientHttpResponse(((CallResult.Synthetic<ClientHttpResponse>) result).response());
  }
}
