package io.tollgate.agent.jdkhttp;

import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.UsageObserver;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The body subscriber of an attempt, before anyone knows whether the app will see it. It requests
 * nothing (the client reads no body, a stream does not start flowing) until the gate decides:
 * {@link #deliverTo} connects the subscriber of the app's own handler, which from then on drives
 * the flow itself, each buffer also fed to the call's {@link UsageObserver} on the way (read
 * through a duplicate, so the app's buffers are not touched, and before the app gets them);
 * {@link #discard} cancels it.
 *
 * <p>Signals that arrive before the app's subscriber (the end of an empty body, an error) are kept
 * and passed on after its {@code onSubscribe}; its first requests are forwarded once its
 * {@code onSubscribe} has returned, so it never gets two signals at once.
 */
final class HeldBody<T> implements HttpResponse.BodySubscriber<T> {

  private final CompletableFuture<T> body = new CompletableFuture<>();

  // guarded by this
  private Flow.Subscription upstream;
  private HttpResponse.BodySubscriber<T> app;
  private boolean discarded;
  private boolean connecting;
  private boolean live;
  private long demandBeforeLive;
  private long invalidDemand;
  private boolean completedEarly;
  private Throwable failedEarly;

  /** Read by the client's thread after {@code app} was set under the lock. */
  private volatile UsageObserver usage = UsageObserver.none();
  private volatile boolean tapBroken;

  @Override
  public CompletionStage<T> getBody() {
    return body;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    boolean cancel;
    boolean connect;
    synchronized (this) {
      cancel = discarded || upstream != null;
      if (upstream == null) {
        upstream = subscription;
      }
      connect = !cancel && app != null;
    }
    if (cancel) {
      subscription.cancel();
    } else if (connect) {
      connect();
    }
  }

  /** The gate forwards this response: {@code subscriber} (the app's) takes the body from here. */
  void deliverTo(HttpResponse.BodySubscriber<T> subscriber, UsageObserver observer) {
    boolean connect;
    synchronized (this) {
      if (discarded || app != null) {
        throw new IllegalStateException("body already " + (discarded ? "discarded" : "delivered"));
      }
      usage = observer;
      app = subscriber;
      connect = upstream != null;
    }
    subscriber.getBody().whenComplete((value, error) -> {
      if (error == null) {
        body.complete(value);
      } else {
        body.completeExceptionally(error);
      }
    });
    if (connect) {
      connect();
    }
  }

  /** Nobody will read this body. */
  void discard() {
    Flow.Subscription subscription;
    synchronized (this) {
      if (discarded || app != null) {
        return;
      }
      discarded = true;
      subscription = upstream;
    }
    body.completeExceptionally(new IOException("response not used: another attempt answered"));
    if (subscription != null) {
      subscription.cancel();
    }
  }

  private void connect() {
    HttpResponse.BodySubscriber<T> subscriber;
    synchronized (this) {
      if (connecting) {
        return;
      }
      connecting = true;
      subscriber = app;
    }
    subscriber.onSubscribe(new TappedSubscription());
    long demand;
    long invalid;
    boolean completed;
    Throwable failed;
    Flow.Subscription subscription;
    synchronized (this) {
      live = true;
      demand = demandBeforeLive;
      invalid = invalidDemand;
      completed = completedEarly;
      failed = failedEarly;
      subscription = upstream;
    }
    if (failed != null) {
      fail(subscriber, failed);
    } else if (completed) {
      complete(subscriber);
    } else if (invalid != 0) {
      subscription.request(invalid);
    } else if (demand > 0) {
      subscription.request(demand);
    }
  }

  @Override
  public void onNext(List<ByteBuffer> buffers) {
    // only after a request, so only once the app's subscriber is live
    HttpResponse.BodySubscriber<T> subscriber;
    synchronized (this) {
      subscriber = app;
    }
    if (!tapBroken) {
      try {
        for (ByteBuffer buffer : buffers) {
          feed(buffer);
        }
      } catch (RuntimeException | LinkageError e) {
        tapBroken = true;
        InternalFailures.record(JdkHttpHook.WHERE, e);
        settleQuietly(e);
      }
    }
    subscriber.onNext(buffers);
  }

  @Override
  public void onError(Throwable error) {
    HttpResponse.BodySubscriber<T> subscriber;
    synchronized (this) {
      if (!live) {
        failedEarly = error;
        if (discarded) {
          body.completeExceptionally(error);
        }
        return;
      }
      subscriber = app;
    }
    fail(subscriber, error);
  }

  @Override
  public void onComplete() {
    HttpResponse.BodySubscriber<T> subscriber;
    synchronized (this) {
      if (!live) {
        completedEarly = true;
        return;
      }
      subscriber = app;
    }
    complete(subscriber);
  }

  private void complete(HttpResponse.BodySubscriber<T> subscriber) {
    if (!tapBroken) {
      try {
        usage.onEnd();
      } catch (RuntimeException | LinkageError e) {
        InternalFailures.record(JdkHttpHook.WHERE, e);
      }
    }
    subscriber.onComplete();
  }

  private void fail(HttpResponse.BodySubscriber<T> subscriber, Throwable error) {
    settleQuietly(error);
    subscriber.onError(error);
  }

  private void settleQuietly(Throwable error) {
    try {
      usage.onError(error);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(JdkHttpHook.WHERE, e);
    }
  }

  private void feed(ByteBuffer buffer) {
    ByteBuffer copy = buffer.duplicate();
    int length = copy.remaining();
    if (length == 0) {
      return;
    }
    if (copy.hasArray()) {
      usage.onBytes(copy.array(), copy.arrayOffset() + copy.position(), length);
    } else {
      byte[] bytes = new byte[length];
      copy.get(bytes);
      usage.onBytes(bytes, 0, length);
    }
  }

  /** The app's subscriber's view of the client's subscription. */
  private final class TappedSubscription implements Flow.Subscription {
    @Override
    public void request(long n) {
      Flow.Subscription subscription;
      synchronized (HeldBody.this) {
        if (!live) {
          if (n <= 0) {
            invalidDemand = n; // passed on: the client answers it with onError, as the spec wants
          } else {
            demandBeforeLive = demandBeforeLive + n < 0 ? Long.MAX_VALUE : demandBeforeLive + n;
          }
          return;
        }
        subscription = upstream;
      }
      subscription.request(n);
    }

    @Override
    public void cancel() {
      // the app stopped reading: what it saw is what it used
      settleQuietly(new IOException("response body cancelled before its end"));
      Flow.Subscription subscription;
      synchronized (HeldBody.this) {
        subscription = upstream;
      }
      subscription.cancel();
    }
  }
}
