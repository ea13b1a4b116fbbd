package io.tollgate.spring.boot.client;

import io.tollgate.gate.Transport;
import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Sends each attempt the gate plans down the rest of the client's chain: the app's own request for
 * the provider it addressed, a {@link PlannedHttpRequest} for a fallback.
 */
final class RestTransport implements Transport<ClientHttpResponse> {

  private final HttpRequest original;
  private final byte[] body;
  private final OutboundRequest outbound;
  private final ClientHttpRequestExecution execution;

  RestTransport(HttpRequest original, byte[] body, OutboundRequest outbound, ClientHttpRequestExecution execution) {
    this.original = original;
    this.body = body;
    this.outbound = outbound;
    this.execution = execution;
  }

  @Override
  public ClientHttpResponse send(OutboundRequest plan) throws IOException {
    if (plan == outbound) {
      return execution.execute(original, body);
    }
    return execution.execute(new PlannedHttpRequest(plan, original.getAttributes()), plan.body());
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
    response.close();
  }
}
