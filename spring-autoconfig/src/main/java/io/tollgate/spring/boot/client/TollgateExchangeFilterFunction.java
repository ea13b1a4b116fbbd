package io.tollgate.spring.boot.client;

import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.gate.UsageObserver;
import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.Supplier;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import org.springframework.web.reactive.function.client.ExchangeStrategies;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Puts the {@code WebClient} calls to configured providers through the {@link Gate} without
 * blocking ({@link Gate#callAsync}): waits and switch-over jitter are scheduled, never slept on an
 * event loop. Same semantics as the agent: limits, fallback with the fallback's own credential,
 * settle from the body as the app consumes it (SSE streams stay streams), a synthetic
 * provider-shaped answer (a 429) delivered as an ordinary response. Calls to any other host pass
 * on untouched after one host comparison.
 *
 * <p>The tenant charged is the one bound ({@code Tenants}) on the thread that subscribes.
 */
public final class TollgateExchangeFilterFunction implements ExchangeFilterFunction {

  private final Gate gate;
  private final Supplier<Codecs> codecs;

  /** With WebFlux's default codecs: for a WebClient built without Boot's builder. */
  public TollgateExchangeFilterFunction(Gate gate) {
    this(gate, Codecs::defaults);
  }

  /**
   * @param codecs the client's own readers and writers (Boot's, with the app's customizations),
   *     asked on the first call to a provider: the body is written as the client would write it
   */
  public TollgateExchangeFilterFunction(Gate gate, Supplier<Codecs> codecs) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.codecs = Objects.requireNonNull(codecs, "codecs");
  }

  /** The gate this filter calls. */
  public Gate gate() {
    return gate;
  }

  @Override
  public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
    URI uri = request.url();
    if (uri.getHost() == null || !gate.watchesHost(uri.getHost()) || gate.providerFor(uri).isEmpty()) {
      return next.exchange(request);
    }
    Codecs used = codecs.get();
    return CapturedBody.of(request, used.writers()).flatMap(body -> {
      Headers.Builder headers = Headers.builder();
      SpringHeaders.toCore(request.headers()).fields().forEach(f -> headers.add(f.name(), f.value()));
      body.headers().headerSet().forEach(entry -> {
        if (request.headers().getFirst(entry.getKey()) == null) {
          entry.getValue().forEach(value -> headers.add(entry.getKey(), value));
        }
      });
      OutboundRequest outbound = OutboundRequest.of(request.method().name(), uri, headers.build(), body.bytes());
      WebClientTransport transport = new WebClientTransport(request, body, outbound, next);
      return Mono.fromFuture(() -> gate.callAsync(outbound, true, transport))
          .map(result -> answer(result, used));
    });
  }

  private static ClientResponse answer(CallResult<ClientResponse> result, Codecs codecs) {
    if (result instanceof CallResult.Forwarded<ClientResponse> forwarded) {
      return observed(forwarded.response(), forwarded.usage());
    }
    SyntheticResponse answer = ((CallResult.Synthetic<ClientResponse>) result).response();
    DataBuffer body = DefaultDataBufferFactory.sharedInstance.wrap(answer.body());
    return ClientResponse.create(HttpStatusCode.valueOf(answer.status()), codecs.readers())
        .headers(headers -> SpringHeaders.copyInto(answer.headers(), headers))
        .body(Flux.just(body))
        .build();
  }

  /** Every buffer the app consumes is shown to the observer (a copy; the buffer is not touched). */
  private static ClientResponse observed(ClientResponse response, UsageObserver usage) {
    if (usage == UsageObserver.none()) {
      return response;
    }
    return response.mutate().body(body -> body
        .doOnNext(buffer -> {
          byte[] copy = new byte[buffer.readableByteCount()];
          int position = buffer.readPosition();
          buffer.read(copy);
          buffer.readPosition(position);
          usage.onBytes(copy, 0, copy.length);
        })
        .doOnComplete(usage::onEnd)
        .doOnError(usage::onError)
        .doOnCancel(() -> usage.onError(new CancellationException("the body was cancelled before its end"))))
        .build();
  }

  /**
   * The readers and writers of one client.
   *
   * @param readers decode Tollgate's own answers, as they would the provider's
   * @param writers write the request body once, for the estimate and every attempt
   */
  public record Codecs(List<HttpMessageReader<?>> readers, List<HttpMessageWriter<?>> writers) {

    public Codecs {
      readers = List.copyOf(readers);
      writers = List.copyOf(writers);
    }

    /** WebFlux's defaults. */
    public static Codecs defaults() {
      ExchangeStrategies strategies = ExchangeStrategies.withDefaults();
      return new Codecs(strategies.messageReaders(), strategies.messageWriters());
    }

  }
}
