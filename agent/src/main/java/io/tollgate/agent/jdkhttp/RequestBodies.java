package io.tollgate.agent.jdkhttp;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Reads a request's body publisher into memory, the way the client would send it. The JDK's own
 * publishers ({@code ofString}, {@code ofByteArray}, {@code ofFile}, {@code ofInputStream}) publish
 * on the subscribing thread, so the future is usually complete on return.
 */
final class RequestBodies {

  private static final byte[] NONE = new byte[0];

  private RequestBodies() {}

  static CompletableFuture<byte[]> read(HttpRequest request) {
    Optional<HttpRequest.BodyPublisher> publisher = request.bodyPublisher();
    if (publisher.isEmpty()) {
      return CompletableFuture.completedFuture(NONE);
    }
    Collector collector = new Collector(publisher.get().contentLength());
    publisher.get().subscribe(collector);
    return collector.done;
  }

  private static final class Collector implements Flow.Subscriber<ByteBuffer> {
    private final CompletableFuture<byte[]> done = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes;

    Collector(long contentLength) {
      bytes = new ByteArrayOutputStream(contentLength > 0 && contentLength <= GatedExchange.MAX_BUFFERED_BODY
          ? (int) contentLength : 256);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(ByteBuffer item) {
      ByteBuffer copy = item.duplicate();
      if (copy.hasArray()) {
        bytes.write(copy.array(), copy.arrayOffset() + copy.position(), copy.remaining());
      } else {
        byte[] chunk = new byte[copy.remaining()];
        copy.get(chunk);
        bytes.writeBytes(chunk);
      }
    }

    @Override
    public void onError(Throwable error) {
      done.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
      done.complete(bytes.toByteArray());
    }
  }
}
