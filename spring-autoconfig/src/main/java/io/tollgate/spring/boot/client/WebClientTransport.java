package io.tollgate.spring.boot.client;

import io.tollgate.gate.AsyncTransport;
import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;

/**
 * Sends each attempt down the rest of the WebClient's filter chain, without blocking: the app's
 * request (with its captured body) for the provider it addressed, the planned request for a
 * fallback.
 */
final class WebClientTransport implements AsyncTransport<ClientResponse> {

  private final ClientRequest original;
  private final CapturedBody body;
  private final OutboundRequest outbound;
  private final ExchangeFunction next;

  WebClientTransport(ClientRequest original, CapturedBody body, OutboundRequest outbound, ExchangeFunction next) {
    this.original = original;
    this.body = body;
    this.outbound = outbound;
    this.next = next;
  }

  @Override
  public CompletableFuture<ClientResponse> send(OutboundRequest plan) {
    ClientRequest request = plan == outbound ? ownRequest() : planned(plan);
    return next.exchange(request).toFuture();
  }

  private ClientRequest ownRequest() {
    return ClientRequest.from(original)
        .headers(headers -> body.headers().headerSet().forEach(entry -> {
          if (headers.getFirst(entry.getKey()) == null) {
            entry.getValue().forEach(value -> headers.add(entry.getKey(), value));
          }
        }))
        .body(body.inserter())
        .build();
  }

  private ClientRequest planned(OutboundRequest plan) {
    return ClientRequest.create(HttpMethod.valueOf(plan.method()), plan.uri())
        .headers(headers -> SpringHeaders.toSpring(plan.headers()).headerSet()
            .forEach(entry -> entry.getValue().forEach(value -> headers.add(entry.getKey(), value))))
        .attributes(attributes -> attributes.putAll(original.attributes()))
        // a fallback's body is the plan's: its model may be renamed
        .body(new CapturedBody(plan.body(), new HttpHeaders()).inserter())
        .build();
  }

  @Override
  public int status(ClientResponse response) {
    return response.statusCode().value();
  }

  @Override
  public Headers headers(ClientResponse response) {
    return SpringHeaders.toCore(response.headers().asHttpHeaders());
  }

  @Override
  public void discard(ClientResponse response) {
    response.releaseBody().subscribe();
  }
}
