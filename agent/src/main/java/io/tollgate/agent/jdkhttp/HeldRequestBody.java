package io.tollgate.agent.jdkhttp;

import io.tollgate.router.StreamedBody;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * An app's body publisher read up to {@code tokens.max-buffered-body}, one buffer at a time: a
 * body that ends within the bound is held whole ({@link #whole()}); of a larger one the first
 * bound + 1 bytes are held and the app's publisher is asked for nothing more until the client
 * sends the request. This is then the client's publisher: it publishes the held bytes, then the
 * rest of the app's buffers as they come, each counted into {@link #streamed()}. It is one-shot: a
 * later subscriber (the client sending again after a redirect) is handed to the app's own publisher.
 */
final class HeldRequestBody implements HttpRequest.BodyPublisher {

  private final HttpRequest.BodyPublisher app;
  private final int bound;
  private final CompletableFuture<HeldRequestBody> read = new CompletableFuture<>();
  private final Reading reading = new Reading();

  // guarded by this
  private byte[] held = new byte[0];
  private int heldLength;
  /** What the buffer that crossed the bound had beyond it: still to publish, after the held bytes. */
  private ByteBuffer overflow;
  private boolean whole;
  private StreamedBody streamed;
  private Flow.Subscription upstream;
  private Relay relay;
  private boolean subscribedOnce;
  /** The app's body ended before the held bytes were published: told after them. */
  private Throwable endedEarly;
  private boolean endedEarlyKnown;

  private HeldRequestBody(HttpRequest.BodyPublisher app, int bound) {
    this.app = app;
    this.bound = bound;
  }

  /** A request without a body. */
  static HeldRequestBody none() {
    HeldRequestBody none = new HeldRequestBody(HttpRequest.BodyPublishers.noBody(), 0);
    none.whole = true;
    return none;
  }

  /** Completes once {@code app} has ended or published more than {@code bound} bytes. */
  static CompletableFuture<HeldRequestBody> read(HttpRequest.BodyPublisher app, int bound) {
    HeldRequestBody body = new HeldRequestBody(app, bound);
    app.subscribe(body.reading);
    return body.read;
  }

  /** True when the body ended within the bound: {@link #bytes()} is all of it. */
  synchronized boolean whole() {
    return whole;
  }

  /** The bytes held: the whole body, or its first bound + 1 bytes. */
  synchronized byte[] bytes() {
    return heldLength == held.length ? held : Arrays.copyOf(held, heldLength);
  }

  /** For a body not held whole: its length as declared or counted; null for a whole one. */
  synchronized StreamedBody streamed() {
    return streamed;
  }

  /** The call will not send the body: the app's publisher is cancelled. */
  void abandon() {
    Flow.Subscription subscription;
    synchronized (this) {
      subscription = whole || subscribedOnce ? null : upstream;
      subscribedOnce = true;
    }
    if (subscription != null) {
      subscription.cancel();
    }
  }

  @Override
  public long contentLength() {
    return app.contentLength();
  }

  @Override
  public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
    Relay first;
    synchronized (this) {
      if (whole || subscribedOnce) {
        first = null;
      } else {
        subscribedOnce = true;
        first = new Relay(subscriber);
        relay = first;
      }
    }
    if (first == null) {
      app.subscribe(subscriber); // whole, or sent again: the app's publisher as it is
      return;
    }
    subscriber.onSubscribe(first);
  }

  /** Takes the app's buffers one at a time until the bound is crossed or the body ends. */
  private final class Reading implements Flow.Subscriber<ByteBuffer> {
    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      synchronized (HeldRequestBody.this) {
        upstream = subscription;
      }
      subscription.request(1);
    }

    @Override
    public void onNext(ByteBuffer item) {
      Relay to;
      synchronized (HeldRequestBody.this) {
        to = relay;
      }
      if (to != null) {
        to.forward(item);
        return;
      }
      if (keep(item)) {
        read.complete(HeldRequestBody.this);
      } else {
        upstreamRequest(1);
      }
    }

    @Override
    public void onError(Throwable error) {
      Relay to;
      synchronized (HeldRequestBody.this) {
        to = relay;
      }
      if (to != null) {
        to.end(error);
      } else if (!read.completeExceptionally(error)) {
        ended(error);
      }
    }

    @Override
    public void onComplete() {
      Relay to;
      boolean completesRead;
      synchronized (HeldRequestBody.this) {
        to = relay;
        completesRead = !read.isDone();
        if (completesRead) {
          whole = true;
        }
      }
      if (to != null) {
        to.end(null);
      } else if (completesRead) {
        read.complete(HeldRequestBody.this);
      } else {
        ended(null); // right after the buffer that crossed the bound, before the client subscribed
      }
    }
  }

  /** Keeps {@code item}; true once more than the bound is held. */
  private synchronized boolean keep(ByteBuffer item) {
    ByteBuffer bytes = item.duplicate();
    int room = bound + 1 - heldLength;
    int n = Math.min(room, bytes.remaining());
    if (heldLength + n > held.length) {
      held = Arrays.copyOf(held, Math.max(heldLength + n, Math.min(bound + 1, Math.max(256, held.length * 2))));
    }
    bytes.get(held, heldLength, n);
    heldLength += n;
    if (heldLength <= bound) {
      return false;
    }
    streamed = StreamedBody.ofLength(app.contentLength());
    streamed.passed(heldLength); // the overflow is counted as it is published
    overflow = bytes.hasRemaining() ? bytes : null;
    return true;
  }

  private void upstreamRequest(long n) {
    Flow.Subscription subscription;
    synchronized (this) {
      subscription = upstream;
    }
    subscription.request(n);
  }

  private synchronized void ended(Throwable error) {
    endedEarly = error;
    endedEarlyKnown = true;
  }

  /** The client's subscription: the held bytes, the overflow, then the app's buffers. */
  private final class Relay implements Flow.Subscription {
    private final Flow.Subscriber<? super ByteBuffer> downstream;
    // guarded by HeldRequestBody.this
    private long demand;
    private int parts = overflow == null ? 1 : 2;
    private boolean draining;
    private boolean done;

    Relay(Flow.Subscriber<? super ByteBuffer> downstream) {
      this.downstream = downstream;
    }

    @Override
    public void request(long n) {
      if (n <= 0) {
        cancel();
        end(new IllegalArgumentException("non-positive request: " + n));
        return;
      }
      synchronized (HeldRequestBody.this) {
        demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
        if (draining) {
          return;
        }
        draining = true;
      }
      drain();
    }

    private void drain() {
      while (true) {
        ByteBuffer next = null;
        long forward = 0;
        boolean terminal = false;
        Throwable error = null;
        synchronized (HeldRequestBody.this) {
          if (done) {
            draining = false;
            return;
          }
          if (parts > 0 && demand > 0) {
            next = parts == 2 || overflow == null
                ? ByteBuffer.wrap(held, 0, heldLength).asReadOnlyBuffer() : overflow;
            if (parts == 2 || overflow == null) {
              held = new byte[0]; // published: the client has it now
              heldLength = 0;
            } else {
              streamed.passed(overflow.remaining());
              overflow = null;
            }
            parts--;
            demand--;
          } else if (parts == 0 && endedEarlyKnown) {
            terminal = true;
            error = endedEarly;
            done = true;
          } else if (parts == 0 && demand > 0) {
            forward = demand;
            demand = 0;
          } else {
            draining = false;
            return;
          }
        }
        if (next != null) {
          downstream.onNext(next);
        } else if (terminal) {
          if (error == null) {
            downstream.onComplete();
          } else {
            downstream.onError(error);
          }
        } else {
          upstreamRequest(forward);
        }
      }
    }

    /** One of the app's buffers after the held ones: counted, passed on. */
    void forward(ByteBuffer item) {
      streamed().passed(item.remaining());
      downstream.onNext(item);
    }

    void end(Throwable error) {
      synchronized (HeldRequestBody.this) {
        if (done) {
          return;
        }
        if (parts > 0) { // told after the held bytes, by the drain that publishes them
          endedEarly = error;
          endedEarlyKnown = true;
          return;
        }
        done = true;
      }
      if (error == null) {
        downstream.onComplete();
      } else {
        downstream.onError(error);
      }
    }

    @Override
    public void cancel() {
      synchronized (HeldRequestBody.this) {
        done = true;
      }
      upstreamRequestCancel();
    }
  }

  private void upstreamRequestCancel() {
    Flow.Subscription subscription;
    synchronized (this) {
      subscription = upstream;
    }
    if (subscription != null) {
      subscription.cancel();
    }
  }
}
