package io.tollgate.spring.boot.client;

import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.gate.Tenants;
import io.tollgate.gate.UsageObserver;
import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
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
import reactor.core.scheduler.Schedulers;

/**
 * Puts the {@code WebClient} calls to configured providers through the {@link Gate} without
 * blocking the event loop: the estimate (the prompt's tokens counted), every reserve and release
 * (a Redis round trip), the decision on each answer and the settle run on Reactor's
 * {@link Schedulers#boundedElastic()} ({@link Gate#callAsync(OutboundRequest, boolean,
 * io.tollgate.gate.AsyncTransport, Executor)}); waits and switch-over jitter are scheduled, never
 * slept. Same semantics as the agent: limits, fallback with the fallback's own credential, settle
 * from the body as the app consumes it (SSE streams stay streams), a synthetic provider-shaped
 * answer (a 429) delivered as an ordinary response. Calls to any other host pass on untouched
 * after one host comparison.
 *
 * <p>The tenant (and user) charged is the one bound ({@code Tenants}) on the thread that subscribes.
 *
 * <p>A failure of Tollgate's own code never reaches the app: before anything was sent the request
 * goes on as if Tollgate were absent (with the body captured once); after, the app gets the
 * client's answer in hand, or what the client failed with, and nothing is sent again
 * ({@link InternalFailures}).
 */
public final class TollgateExchangeFilterFunction implements ExchangeFilterFunction {

  static final String WHERE = "web-client";
  /** Where the steps that may block run: never on the event loop. */
  private static final Executor STEPS = task -> Schedulers.boundedElastic().schedule(task);

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
    Codecs used = providerCodecs(uri);
    if (used == null) {
      return next.exchange(request);
    }
    return Mono.defer(() -> {
      Optional<String> tenant = Tenants.current(); // the subscriber's
      Optional<String> user = Tenants.currentUser();
      // the app's body, written by its own inserter: what that throws is the app's
      return CapturedBody.of(request, used.writers(), gate.config().tokens().maxBufferedBody())
          .flatMap(body -> gated(request, next, body, used, tenant, user)
              // sent by the time an answer is had, or never to be: the rest is let go
              .doFinally(signal -> body.abandon()));
    });
  }

  /** The client's codecs for a call to a provider; null for any other call, or when we failed. */
  private Codecs providerCodecs(URI uri) {
    try {
      return uri.getHost() != null && gate.watchesHost(uri.getHost())
          && gate.providerFor(uri).isPresent() ? codecs.get() : null;
    } catch (RuntimeException | Error e) {
      InternalFailures.shared().record(WHERE, e);
      return null;
    }
  }

  private Mono<ClientResponse> gated(ClientRequest request, ExchangeFunction next, CapturedBody body,
      Codecs codecs, Optional<String> tenant, Optional<String> user) {
    WebClientTransport transport;
    CompletableFuture<CallResult<ClientResponse>> call;
    try {
      Headers.Builder headers = Headers.builder();
      SpringHeaders.toCore(request.headers()).fields().forEach(f -> headers.add(f.name(), f.value()));
      body.headers().headerSet().forEach(entry -> {
        if (request.headers().getFirst(entry.getKey()) == null) {
          entry.getValue().forEach(value -> headers.add(entry.getKey(), value));
        }
      });
      OutboundRequest outbound = body.whole()
          ? OutboundRequest.of(request.method().name(), request.url(), headers.build(), body.bytes())
          : OutboundRequest.withHeldPrefix(request.method().name(), request.url(), headers.build(),
              body.bytes(), body.streamed());
      transport = new WebClientTransport(request, body, outbound, next);
      // the body may have been written on another thread than the subscriber's
      try (Tenants.Scope bound = tenant.map(id -> Tenants.bind(id, user.orElse(null))).orElse(() -> { })) {
        // a body held whole can be sent again, to a fallback; one held in part only once
        call = gate.callAsync(outbound, body.whole(), transport, STEPS);
      }
    } catch (RuntimeException | Error e) {
      InternalFailures.shared().record(WHERE, e);
      return next.exchange(WebClientTransport.asAddressed(request, body));
    }
    return Mono.fromFuture(call)
        .map(result -> {
          ClientResponse answer = answer(result, codecs);
          transport.releaseParked();
          return answer;
        })
        .onErrorResume(error -> {
          if (transport.isClientFailure(error)) {
            transport.releaseParked();
            return Mono.error(error);
          }
          InternalFailures.shared().record(WHERE, error);
          return transport.recover();
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

  /**
   * Every buffer the app consumes is shown to the observer (a copy; the buffer is not touched) on
   * the thread that delivers it; the end of the body, its failure or its cancellation settles on
   * the steps, and the app sees the end only once the settle was handed to the limiter.
   */
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
          guarded(() -> usage.onBytes(copy, 0, copy.length));
        })
        .concatWith(onSteps(usage::onEnd))
        .onErrorResume(error -> onSteps(() -> usage.onError(error)).concatWith(Mono.error(error)))
        .doOnCancel(() -> guarded(() -> STEPS.execute(() -> guarded(() -> usage.onError(
            new CancellationException("the body was cancelled before its end")))))))
        .build();
  }

  /** Runs {@code step} of the usage observer on the steps, completing empty after it. */
  private static Mono<DataBuffer> onSteps(Runnable step) {
    return Mono.<DataBuffer>fromRunnable(() -> guarded(step)).subscribeOn(Schedulers.boundedElastic());
  }

  /** A failure of the usage tap or the settle is Tollgate's: counted, never the app's body's. */
  private static void guarded(Runnable step) {
    try {
      step.run();
    } catch (RuntimeException | Error e) {
      InternalFailures.shared().record(WHERE, e);
    }
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
