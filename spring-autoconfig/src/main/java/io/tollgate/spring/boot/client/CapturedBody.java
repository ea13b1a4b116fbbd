package io.tollgate.spring.boot.client;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.reactive.AbstractClientHttpRequest;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.function.BodyInserter;
import org.springframework.web.reactive.function.client.ClientRequest;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A WebClient request body as bytes, written by the request's own {@link BodyInserter} with the
 * client's own codecs: the gate reads the prompt from it, and every attempt sends exactly these
 * bytes (an inserter over a one-shot publisher could not be run twice).
 *
 * @param bytes the body; empty for none
 * @param headers what the inserter set while writing ({@code Content-Type})
 */
record CapturedBody(byte[] bytes, HttpHeaders headers) {

  static Mono<CapturedBody> of(ClientRequest request, List<HttpMessageWriter<?>> writers) {
    Capture capture = new Capture(request.method(), request.url());
    BodyInserter.Context context = new BodyInserter.Context() {
      @Override
      public List<HttpMessageWriter<?>> messageWriters() {
        return writers;
      }

      @Override
      public Optional<ServerHttpRequest> serverRequest() {
        return Optional.empty();
      }

      @Override
      public Map<String, Object> hints() {
        return Map.of();
      }
    };
    return request.body().insert(capture, context)
        .then(Mono.fromSupplier(() -> new CapturedBody(capture.bytes, capture.getHeaders())));
  }

  /** Writes these bytes to an attempt's request, whatever its inserter was. */
  BodyInserter<Object, org.springframework.http.client.reactive.ClientHttpRequest> inserter() {
    return (message, context) -> message.writeWith(Mono.fromSupplier(() -> message.bufferFactory().wrap(bytes)));
  }

  /** A request that only keeps what is written to it. */
  private static final class Capture extends AbstractClientHttpRequest {
    private final HttpMethod method;
    private final URI uri;
    private byte[] bytes = new byte[0];

    Capture(HttpMethod method, URI uri) {
      super(new HttpHeaders());
      this.method = method;
      this.uri = uri;
    }

    @Override
    public HttpMethod getMethod() {
      return method;
    }

    @Override
    public URI getURI() {
      return uri;
    }

    @Override
    public DataBufferFactory bufferFactory() {
      return DefaultDataBufferFactory.sharedInstance;
    }

    @Override
    public <T> T getNativeRequest() {
      throw new UnsupportedOperationException("a captured body has no native request");
    }

    @Override
    public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
      return DataBufferUtils.join(Flux.from(body)).doOnNext(joined -> {
        bytes = new byte[joined.readableByteCount()];
        joined.read(bytes);
        DataBufferUtils.release(joined);
      }).then();
    }

    @Override
    public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
      return writeWith(Flux.from(body).concatMap(Flux::from));
    }

    @Override
    public Mono<Void> setComplete() {
      return Mono.empty();
    }

    @Override
    protected void applyHeaders() {
      // nothing to apply: the headers are read back from getHeaders()
    }

    @Override
    protected void applyCookies() {
      // cookies are the client's, sent with each attempt
    }
  }
}
