package io.tollgate.spring.boot.client;

import io.tollgate.router.StreamedBody;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
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
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * A WebClient request body written by the request's own {@link BodyInserter} with the client's
 * own codecs, read up to {@code tokens.max-buffered-body}: the gate reads the prompt from the
 * bytes held. A body that ends within the bound is held whole, and every attempt sends exactly
 * these bytes (an inserter over a one-shot publisher could not be run twice). Of a larger one the
 * first bound + 1 bytes are held, nothing more is asked of the inserter's publisher until the
 * request is sent, and then the held bytes go first and the rest of the publisher's buffers
 * follow as they come, each counted into {@link #streamed()}: sent once, to the provider addressed.
 */
final class CapturedBody {

  private final byte[] bytes;
  private final HttpHeaders headers;
  /** The rest of a body not held whole; null for a whole one. */
  private final Rest rest;

  private CapturedBody(byte[] bytes, HttpHeaders headers, Rest rest) {
    this.bytes = bytes;
    this.headers = headers;
    this.rest = rest;
  }

  /** A body of these bytes: a fallback's, planned by the gate. */
  static CapturedBody of(byte[] bytes) {
    return new CapturedBody(bytes, new HttpHeaders(), null);
  }

  /** Completes once the inserter has written the whole body, or more than {@code bound} bytes. */
  static Mono<CapturedBody> of(ClientRequest request, List<HttpMessageWriter<?>> writers, int bound) {
    Capture capture = new Capture(request.method(), request.url(), bound);
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
    return Mono.create(sink -> {
      capture.onHeld(sink);
      request.body().insert(capture, context).subscribe(null,
          error -> capture.failed(sink, error), () -> capture.completed(sink));
    });
  }

  /** The body, or its first bytes when it is not held whole. */
  byte[] bytes() {
    return bytes;
  }

  /** What the inserter set while writing ({@code Content-Type}). */
  HttpHeaders headers() {
    return headers;
  }

  /** True when {@link #bytes()} is the whole body. */
  boolean whole() {
    return rest == null;
  }

  /** For a body not held whole: its length as counted; null for a whole one. */
  StreamedBody streamed() {
    return rest == null ? null : rest.streamed;
  }

  /** Writes the body to an attempt's request, whatever its inserter was. */
  BodyInserter<Object, org.springframework.http.client.reactive.ClientHttpRequest> inserter() {
    if (rest == null) {
      return (message, context) -> message.writeWith(Mono.fromSupplier(() -> message.bufferFactory().wrap(bytes)));
    }
    return (message, context) -> message.writeWith(
        Flux.concat(Mono.fromSupplier(() -> message.bufferFactory().wrap(bytes)), rest.flux()));
  }

  /** The call will not send the body: the rest of the inserter's publisher is let go. */
  void abandon() {
    if (rest != null) {
      rest.abandon();
    }
  }

  /** A request that keeps what is written to it, up to the bound. */
  private static final class Capture extends AbstractClientHttpRequest {
    private final HttpMethod method;
    private final URI uri;
    private final int bound;
    // guarded by this
    private MonoSink<CapturedBody> result;
    private Taker taker;

    Capture(HttpMethod method, URI uri, int bound) {
      super(new HttpHeaders());
      this.method = method;
      this.uri = uri;
      this.bound = bound;
    }

    synchronized void onHeld(MonoSink<CapturedBody> sink) {
      result = sink;
    }

    /** The inserter is done: the body was whole, or its rest has been sent. */
    void completed(MonoSink<CapturedBody> sink) {
      Taker written;
      synchronized (this) {
        written = taker;
      }
      if (written == null) {
        sink.success(new CapturedBody(new byte[0], getHeaders(), null)); // no body written
      } else if (!written.handedOver()) {
        sink.success(new CapturedBody(written.bytes(), getHeaders(), null));
      }
    }

    /** The inserter failed: before the bound, the app's own failure; after, the send's. */
    void failed(MonoSink<CapturedBody> sink, Throwable error) {
      Taker written;
      synchronized (this) {
        written = taker;
      }
      if (written == null || !written.handedOver()) {
        sink.error(error);
      }
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
      return Mono.create(done -> {
        Taker written;
        synchronized (this) {
          written = new Taker(bound, done, held -> {
            MonoSink<CapturedBody> sink;
            synchronized (Capture.this) {
              sink = result;
            }
            sink.success(new CapturedBody(held.bytes(), getHeaders(), held));
          });
          taker = written;
        }
        body.subscribe(written);
      });
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

  /**
   * Takes the inserter's buffers one at a time: copies them while the bound holds, then keeps the
   * subscription for the request that sends the rest ({@link Rest}).
   */
  private static final class Taker extends Rest implements Subscriber<DataBuffer> {
    private final int bound;
    private final MonoSink<Void> done;
    private final Consumer<Rest> onHeld;
    private final ByteArrayOutputStream held = new ByteArrayOutputStream();

    Taker(int bound, MonoSink<Void> done, Consumer<Rest> onHeld) {
      this.bound = bound;
      this.done = done;
      this.onHeld = onHeld;
    }

    @Override
    public void onSubscribe(Subscription subscription) {
      upstream(subscription);
      subscription.request(1);
    }

    @Override
    public void onNext(DataBuffer buffer) {
      if (handedOver()) {
        forward(buffer);
        return;
      }
      int n = Math.min(buffer.readableByteCount(), bound + 1 - held.size());
      byte[] chunk = new byte[n];
      buffer.read(chunk);
      held.write(chunk, 0, n);
      if (held.size() <= bound) {
        DataBufferUtils.release(buffer);
        request(1);
        return;
      }
      streamed.passed(held.size());
      holdOverflow(buffer.readableByteCount() > 0 ? buffer : release(buffer));
      onHeld.accept(this);
    }

    @Override
    public void onError(Throwable error) {
      done.error(error);
      end(error);
    }

    @Override
    public void onComplete() {
      done.success();
      end(null);
    }

    @Override
    byte[] bytes() {
      return held.toByteArray();
    }

    private static DataBuffer release(DataBuffer buffer) {
      DataBufferUtils.release(buffer);
      return null;
    }
  }

  /**
   * The rest of a body held in part, published once to the request that sends it: the part of the
   * buffer that crossed the bound, then the inserter's further buffers on demand, counted.
   */
  private abstract static class Rest {
    final StreamedBody streamed = StreamedBody.ofUnknownLength();
    // guarded by this
    private Subscription upstream;
    private DataBuffer overflow;
    private boolean handedOver;
    private boolean taken;
    private boolean ended;
    private Throwable failure;
    private FluxSink<DataBuffer> sink;

    abstract byte[] bytes();

    synchronized void upstream(Subscription subscription) {
      upstream = subscription;
    }

    synchronized boolean handedOver() {
      return handedOver;
    }

    synchronized void holdOverflow(DataBuffer buffer) {
      overflow = buffer;
      handedOver = true;
    }

    void request(long n) {
      Subscription subscription;
      synchronized (this) {
        subscription = upstream;
      }
      subscription.request(n);
    }

    void forward(DataBuffer buffer) {
      FluxSink<DataBuffer> to;
      synchronized (this) {
        to = sink;
      }
      streamed.passed(buffer.readableByteCount());
      if (to == null) {
        DataBufferUtils.release(buffer); // abandoned: nobody sends it
      } else {
        to.next(buffer);
      }
    }

    void end(Throwable error) {
      FluxSink<DataBuffer> to;
      synchronized (this) {
        ended = true;
        failure = error;
        to = sink;
      }
      if (to != null) {
        if (error == null) {
          to.complete();
        } else {
          to.error(error);
        }
      }
    }

    /** The rest, for the one request that sends it. */
    Flux<DataBuffer> flux() {
      return Flux.create(out -> {
        DataBuffer first;
        boolean endedAlready;
        Throwable error;
        synchronized (this) {
          if (taken) {
            out.error(new IllegalStateException(
                "a request body larger than tokens.max-buffered-body is sent once"));
            return;
          }
          taken = true;
          first = overflow;
          overflow = null;
          if (first != null) { // queued in the sink until asked for, before anything of upstream
            streamed.passed(first.readableByteCount());
            out.next(first);
          }
          sink = out;
          endedAlready = ended;
          error = failure;
        }
        out.onCancel(this::cancel);
        if (!endedAlready) {
          out.onRequest(this::request);
        } else if (error == null) {
          out.complete();
        } else {
          out.error(error);
        }
      });
    }

    void abandon() {
      DataBuffer unsent;
      boolean cancel;
      synchronized (this) {
        cancel = !taken && !ended;
        taken = true;
        unsent = overflow;
        overflow = null;
      }
      if (unsent != null) {
        DataBufferUtils.release(unsent);
      }
      if (cancel) {
        cancel();
      }
    }

    private void cancel() {
      Subscription subscription;
      synchronized (this) {
        subscription = upstream;
      }
      if (subscription != null) {
        subscription.cancel();
      }
    }
  }
}
