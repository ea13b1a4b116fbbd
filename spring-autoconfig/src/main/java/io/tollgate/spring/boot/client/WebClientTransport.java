package io.tollgate.spring.boot.client;

import io.tollgate.gate.AsyncTransport;
import io.tollgate.gate.AttachedAgent;
import io.tollgate.gate.Tenants;
import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

/**
 * Sends each attempt down the rest of the WebClient's filter chain, without blocking: the app's
 * request (with its captured body) for the provider it addressed, the planned request for a
 * fallback.
 *
 * <p>As {@link RestTransport}, it keeps what the client answered for a failure of Tollgate's own
 * code ({@link #recover}): the last response until the gate discards it, the last one discarded
 * until the next attempt or the end of the call, and what the client failed with.
 */
final class WebClientTransport implements AsyncTransport<ClientResponse> {

  private final ClientRequest original;
  private final CapturedBody body;
  private final OutboundRequest outbound;
  private final ExchangeFunction next;
  // the gate's steps run one after the other, but on several threads; responses arrive on others
  private boolean sent;
  private ClientResponse open;
  private ClientResponse parked;
  private Throwable clientFailure;

  WebClientTransport(ClientRequest original, CapturedBody body, OutboundRequest outbound, ExchangeFunction next) {
    this.original = original;
    this.body = body;
    this.outbound = outbound;
    this.next = next;
  }

  @Override
  public CompletableFuture<ClientResponse> send(OutboundRequest plan) {
    releaseParked();
    ClientRequest request = plan == outbound ? asAddressed(original, body) : planned(plan);
    Mono<ClientResponse> exchange;
    synchronized (this) {
      sent = true;
    }
    // gated here: an attached agent lets it pass. The exchange is subscribed inside the mark, and
    // a connector on a client the agent instruments (the JDK's) sends as it is subscribed.
    try (Tenants.Scope gated = AttachedAgent.sendingGatedCall()) {
      try {
        exchange = next.exchange(request);
      } catch (RuntimeException | Error e) {
        failed(e);
        throw e;
      }
      return exchange.doOnNext(this::answered).doOnError(this::failed).toFuture();
    }
  }

  /** The app's own request, its body the bytes captured once. */
  static ClientRequest asAddressed(ClientRequest original, CapturedBody body) {
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
        .body(CapturedBody.of(plan.body()).inserter())
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
    ClientResponse released = null;
    synchronized (this) {
      if (response == open) {
        open = null;
      }
      if (response != parked) {
        released = parked;
        parked = response;
      }
    }
    release(released);
  }

  private synchronized void answered(ClientResponse response) {
    open = response;
  }

  private synchronized void failed(Throwable error) {
    clientFailure = error;
  }

  /** True when {@code error} is what the client failed with: the app's own, passed on as it is. */
  synchronized boolean isClientFailure(Throwable error) {
    return error == clientFailure;
  }

  /** The call ended: a response discarded but kept is released now. */
  void releaseParked() {
    ClientResponse released;
    synchronized (this) {
      released = parked;
      parked = null;
    }
    release(released);
  }

  /**
   * After a failure of Tollgate's own code: nothing sent yet, the app's request goes as it was;
   * else the client's answer in hand (the last response, else the last one discarded), else what
   * the client failed with. A request already sent is never sent again.
   */
  Mono<ClientResponse> recover() {
    boolean nothingSent;
    ClientResponse inHand;
    ClientResponse released = null;
    Throwable failure;
    synchronized (this) {
      nothingSent = !sent;
      inHand = open != null ? open : parked;
      if (inHand != null && inHand != parked) {
        released = parked;
      }
      open = null;
      parked = null;
      failure = clientFailure;
    }
    if (nothingSent) {
      return next.exchange(asAddressed(original, body));
    }
    release(released);
    if (inHand != null) {
      return Mono.just(inHand);
    }
    return Mono.error(failure); // sent: either a response or a failure was had
  }

  private static void release(ClientResponse response) {
    if (response != null) {
      response.releaseBody().subscribe();
    }
  }
}
