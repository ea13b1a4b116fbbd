package io.tollgate.agent.apache5.helpers;

import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.UsageObserver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * One attempt's response as the client delivers it, held until the gate decides: its head
 * completes {@link #head()}; then either {@link #forwardTo} hands it to the app's own consumer
 * (every byte the consumer takes also copied to the call's {@link UsageObserver}) or
 * {@link #discard()} drops it. The gate decides on one of its own threads as soon as the head has
 * arrived (the I/O thread only hands the head over): what arrives of a success meanwhile is held
 * and passed on first, then the stream streams; a refusal the gate keeps while it tries a fallback
 * has its body held in memory until then, at most {@code tokens.max-buffered-body} of it: past
 * that the client is given no more capacity, so the rest waits in the connection until the gate
 * decides.
 */
final class AsyncAttempt implements AsyncResponseConsumer<Object> {

  private enum State { UNDECIDED, FORWARDING, DISCARDING }

  private final CompletableFuture<AsyncAttempt> head = new CompletableFuture<>();
  /** Where the client's own failures are noted: they are the app's to see, not Tollgate's. */
  private final Set<Throwable> clientFailures;
  /** {@code tokens.max-buffered-body}: the most of the body taken before the gate decides. */
  private final int maxHeld;
  private State state = State.UNDECIDED;

  private HttpResponse response;
  private EntityDetails details;
  private HttpContext context;
  /** The client's own callback for this exchange. */
  private FutureCallback<Object> exchange;
  private boolean exchangeCompleted;
  private CapacityChannel capacity;
  private ByteArrayOutputStream held;
  private boolean ended;
  private List<? extends Header> trailers;
  private Exception failure;
  private boolean released;

  private volatile AsyncResponseConsumer<Object> app;
  private AppResult appResult;
  private volatile UsageObserver usage;

  AsyncAttempt(Set<Throwable> clientFailures, int maxHeld) {
    this.clientFailures = clientFailures;
    this.maxHeld = maxHeld;
  }

  /** Completes when the response's status and headers have arrived, or the exchange failed. */
  CompletableFuture<AsyncAttempt> head() {
    return head;
  }

  HttpResponse response() {
    return response;
  }

  @Override
  public void consumeResponse(HttpResponse response, EntityDetails details, HttpContext context,
      FutureCallback<Object> resultCallback) {
    synchronized (this) {
      this.response = response;
      this.details = details;
      this.context = context;
      this.exchange = resultCallback;
      this.ended = details == null;
    }
    head.complete(this); // handed to the gate, which decides on its own thread
  }

  @Override
  public void informationResponse(HttpResponse response, HttpContext context)
      throws HttpException, IOException {
    AsyncResponseConsumer<Object> to;
    synchronized (this) {
      to = state == State.FORWARDING ? app : null;
    }
    if (to != null) {
      to.informationResponse(response, context);
    }
  }

  @Override
  public synchronized void updateCapacity(CapacityChannel channel) throws IOException {
    capacity = channel;
    if (state == State.FORWARDING) {
      app.updateCapacity(channel);
    } else if (state == State.DISCARDING) {
      channel.update(Integer.MAX_VALUE); // dropped: take it all
    } else {
      int room = maxHeld + 1 - (held == null ? 0 : held.size());
      if (room > 0) {
        channel.update(room); // held until the gate decides: no more than the bound
      }
    }
  }

  @Override
  public synchronized void consume(ByteBuffer src) throws IOException {
    if (state == State.FORWARDING) {
      pass(src);
    } else if (state == State.UNDECIDED) {
      if (held == null) {
        held = new ByteArrayOutputStream();
      }
      while (src.hasRemaining()) {
        held.write(src.get());
      }
    } else {
      src.position(src.limit());
    }
  }

  @Override
  public void streamEnd(List<? extends Header> trailers) throws HttpException, IOException {
    AsyncResponseConsumer<Object> to = null;
    synchronized (this) {
      ended = true;
      this.trailers = trailers;
      if (state == State.FORWARDING) {
        to = app;
      } else {
        completeExchange(null); // held in memory or dropped: the connection is free
      }
    }
    if (to != null) {
      observe(UsageObserver::onEnd); // settled before the app's consumer completes its future
      to.streamEnd(trailers);
    }
  }

  @Override
  public void failed(Exception cause) {
    AsyncResponseConsumer<Object> to;
    AppResult result;
    synchronized (this) {
      if (ended && state != State.FORWARDING) {
        return; // the response is whole: a late failure of the exchange changes nothing
      }
      failure = cause;
      to = state == State.FORWARDING ? app : null;
      result = appResult;
    }
    exchangeFailed(cause);
    if (to != null) {
      observe(observer -> observer.onError(cause));
      to.failed(cause);
      result.failed(cause); // a consumer is told, but only the client fails the future
    }
  }

  @Override
  public void releaseResources() {
    AsyncResponseConsumer<Object> to;
    synchronized (this) {
      released = true;
      to = state == State.FORWARDING ? app : null;
    }
    if (to != null) {
      to.releaseResources();
    }
  }

  /** The client's callback for the whole exchange failed (before or after the head). */
  void exchangeFailed(Exception cause) {
    clientFailures.add(cause);
    head.completeExceptionally(cause);
  }

  /** Drops the response: the gate will not answer with it. */
  synchronized void discard() {
    state = State.DISCARDING;
    held = null;
    if (capacity != null && !ended) {
      try {
        capacity.update(Integer.MAX_VALUE); // the rest is read and dropped: the connection is freed
      } catch (IOException e) {
        // the exchange failed meanwhile: nothing left to read
      }
    }
  }

  /**
   * Hands the response to the app's consumer: head, then what was held, then the rest as it
   * arrives. {@code done} gets the consumer's result.
   */
  void forwardTo(AsyncResponseConsumer<Object> consumer, UsageObserver observer,
      FutureCallback<Object> done) throws HttpException, IOException {
    synchronized (this) {
      app = consumer;
      usage = observer;
      state = State.FORWARDING;
      if (details == null) {
        observe(UsageObserver::onEnd);
      }
      appResult = new AppResult(done);
      consumer.consumeResponse(response, details, context, appResult);
      if (details == null) {
        return;
      }
      if (capacity != null) {
        consumer.updateCapacity(capacity);
      }
      if (held != null) {
        ByteBuffer bytes = ByteBuffer.wrap(held.toByteArray());
        held = null;
        pass(bytes);
      }
      if (failure != null) {
        observe(o -> o.onError(failure));
        consumer.failed(failure);
        appResult.failed(failure);
      } else if (ended) {
        observe(UsageObserver::onEnd);
        consumer.streamEnd(trailers);
      }
      if (released) {
        consumer.releaseResources();
      }
    }
  }

  /**
   * Into the app's consumer, every byte also copied to the usage observer. Consumers take all they
   * are given (the capacity window is their flow control), and many read through the backing
   * array without moving the buffer's position: the whole remainder is what they got.
   */
  private void pass(ByteBuffer src) throws IOException {
    int length = src.remaining();
    if (length > 0) {
      byte[] copy = new byte[length];
      src.duplicate().get(copy);
      observe(observer -> observer.onBytes(copy, 0, length));
    }
    app.consume(src);
  }

  private synchronized void completeExchange(Object result) {
    if (exchange != null && !exchangeCompleted) {
      exchangeCompleted = true;
      exchange.completed(result);
    }
  }

  private synchronized void failExchange(Exception cause) {
    if (exchange != null && !exchangeCompleted) {
      exchangeCompleted = true;
      exchange.failed(cause);
    }
  }

  /** The app consumer's result: to the app, and to the client, which ends the exchange. */
  private final class AppResult implements FutureCallback<Object> {
    private final FutureCallback<Object> done;

    AppResult(FutureCallback<Object> done) {
      this.done = done;
    }

    @Override
    public void completed(Object result) {
      done.completed(result);
      completeExchange(result);
    }

    @Override
    public void failed(Exception cause) {
      done.failed(cause);
      failExchange(cause);
    }

    @Override
    public void cancelled() {
      done.cancelled();
      completeExchange(null);
    }
  }

  private void observe(Consumer<UsageObserver> step) {
    UsageObserver observer = usage;
    if (observer == null) {
      return;
    }
    try {
      step.accept(observer);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(Async5Execution.WHERE, e);
    }
  }
}
