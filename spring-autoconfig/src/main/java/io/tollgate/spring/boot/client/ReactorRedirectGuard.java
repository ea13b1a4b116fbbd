package io.tollgate.spring.boot.client;

import io.netty.handler.codec.http.HttpHeaders;
import io.tollgate.gate.Gate;
import io.tollgate.router.CrossOriginHeaders;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientRequest;
import reactor.netty.http.client.HttpClientResponse;

/**
 * Customizes a Reactor Netty client that follows redirects (Boot builds its RestClient, RestTemplate
 * and WebClient on one unless told otherwise, and follows redirects by default): a redirect of a
 * provider call to another origin keeps only the headers {@link CrossOriginHeaders} lets leave.
 * Reactor Netty itself drops {@code Authorization} and cookies to another host, but no other
 * header, so {@code api-key}, {@code x-api-key} and any gateway key went with it. The client's own
 * redirect rule and redirect-request customizer are kept; a client that follows no redirect is
 * left as it is.
 */
public final class ReactorRedirectGuard implements UnaryOperator<HttpClient> {

  private final Supplier<Gate> gate;

  /** {@code gate}: looked up on the first redirect, not when the client is made. */
  public ReactorRedirectGuard(Supplier<Gate> gate) {
    this.gate = Objects.requireNonNull(gate, "gate");
  }

  @Override
  public HttpClient apply(HttpClient client) {
    BiPredicate<HttpClientRequest, HttpClientResponse> follows = client.configuration().followRedirectPredicate();
    if (follows == null) {
      return client;
    }
    BiConsumer<HttpHeaders, HttpClientRequest> theirs = client.configuration().redirectRequestBiConsumer();
    if (theirs != null) {
      return client.followRedirect(follows, (previous, request) -> {
        theirs.accept(previous, request);
        guard(request);
      });
    }
    Consumer<HttpClientRequest> their = client.configuration().redirectRequestConsumer();
    return client.followRedirect(follows, request -> {
      if (their != null) {
        their.accept(request);
      }
      guard(request);
    });
  }

  /** What throws here fails the redirect, and so the call: nothing is sent on a guess. */
  private void guard(HttpClientRequest request) {
    String[] from = request.redirectedFrom();
    if (from.length == 0) {
      return;
    }
    URI first = URI.create(from[0]);
    URI to = URI.create(request.resourceUrl());
    Gate current = gate.get();
    if (current == null || current.providerFor(first).isEmpty() || CrossOriginHeaders.sameOrigin(first, to)) {
      return;
    }
    CrossOriginHeaders leaving = current.crossOriginHeaders();
    HttpHeaders headers = request.requestHeaders();
    List<String> names = new ArrayList<>(headers.names());
    for (String name : names) {
      if (!leaving.mayLeaveOnTheWire(name)) {
        headers.remove(name);
      }
    }
  }
}
