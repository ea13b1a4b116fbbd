package io.tollgate.agent.apache5.helpers;

import io.tollgate.agent.GatedRequests;
import io.tollgate.agent.ProviderOrigin;
import io.tollgate.gate.AsyncTransport;
import io.tollgate.llm.Headers;
import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.router.OutboundRequest;
import java.net.URI;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hc.client5.http.async.methods.ConfigurableHttpRequest;
import org.apache.hc.client5.http.config.Configurable;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.nio.AsyncPushConsumer;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.HandlerFactory;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Sends each attempt the gate plans through the app's own async client, with the body read into
 * memory: the app's request for the provider it addressed, a rebuilt one (URL, headers, body of
 * the plan, the app's request config) for a fallback. A streamed body (not read into memory) goes
 * once, from the app's own producer. Completes with the attempt once its head has arrived;
 * nothing here blocks. Only Tollgate's own hook is skipped ({@link #sending()}). While an attempt
 * is under way its context names the origin it went to, so that the client follows a redirect
 * from there with only the headers that may leave ({@link OriginGuard5}).
 */
final class Async5Transport implements AsyncTransport<AsyncAttempt> {

  /** Set while this thread starts an attempt: the client's hook must let it through. */
  private static final ThreadLocal<Boolean> SENDING = new ThreadLocal<>();

  private final CloseableHttpAsyncClient client;
  private final HttpHost target;
  private final HttpRequest original;
  private final EntityDetails described;
  private final HandlerFactory<AsyncPushConsumer> push;
  private final HttpContext context;
  private final OutboundRequest outbound;
  private final CrossOriginHeaders leaving;
  /** {@code tokens.max-buffered-body}: the most of an undecided response's body held. */
  private final int maxHeld;
  /** For a streamed body: the app's producer until it is handed to the client (once), else null. */
  private final AtomicReference<AsyncRequestProducer> unsentStream;
  private final boolean streamed;
  /** The exceptions the client failed attempts with: the app's to see, not ours. */
  private final Set<Throwable> clientFailures = Collections.synchronizedSet(
      Collections.newSetFromMap(new IdentityHashMap<>()));

  /**
   * @param streamed the app's producer of a body not read into memory, null when it was read
   */
  Async5Transport(CloseableHttpAsyncClient client, HttpHost target, HttpRequest original,
      EntityDetails described, AsyncRequestProducer streamed,
      HandlerFactory<AsyncPushConsumer> push, HttpContext context, OutboundRequest outbound,
      CrossOriginHeaders leaving, int maxHeld) {
    this.client = client;
    this.leaving = leaving;
    this.target = target;
    this.original = original;
    this.described = described;
    this.unsentStream = new AtomicReference<>(streamed);
    this.streamed = streamed != null;
    this.push = push;
    this.context = context;
    this.outbound = outbound;
    this.maxHeld = maxHeld;
  }

  static boolean sending() {
    return SENDING.get() != null;
  }

  /** A call Tollgate does not take, sent through the client as Tollgate's own. */
  static <T> Future<T> passThrough(CloseableHttpAsyncClient client, HttpHost target,
      AsyncRequestProducer producer, AsyncResponseConsumer<T> consumer,
      HandlerFactory<AsyncPushConsumer> push, HttpContext context, FutureCallback<T> callback) {
    Boolean outer = SENDING.get();
    SENDING.set(Boolean.TRUE);
    try {
      return client.execute(target, producer, consumer, push, context, callback);
    } finally {
      if (outer == null) {
        SENDING.remove();
      }
    }
  }

  @Override
  public CompletableFuture<AsyncAttempt> send(OutboundRequest plan) {
    boolean asAddressed = plan == outbound || plan.equals(outbound);
    AsyncRequestProducer producer = asAddressed ? producer(original, plan.body())
        : producer(rebuilt(plan), plan.body());
    AsyncAttempt attempt = new AsyncAttempt(clientFailures, maxHeld);
    HttpContext bound = boundTo(plan.uri());
    Ended ended = new Ended(attempt, bound);
    try {
      passThrough(client, asAddressed ? target : Classic5Messages.hostOf(plan.uri()), producer,
          attempt, push, bound, ended);
    } catch (RuntimeException e) {
      unbind(bound, ended.origin);
      throw e;
    }
    return attempt.head();
  }

  /**
   * The context of an attempt to {@code uri}: the app's (or a new one), naming that origin until
   * the attempt ends ({@link #unbind}).
   */
  private HttpContext boundTo(URI uri) {
    HttpContext bound = context != null ? context : HttpClientContext.create();
    bound.setAttribute(ProviderOrigin.ATTRIBUTE,
        ProviderOrigin.of(uri.getScheme(), uri.getHost(), uri.getPort(), leaving));
    return bound;
  }

  /** The attempt that named its origin in {@code bound} has ended: the next one may have named its own. */
  private static void unbind(HttpContext bound, Object origin) {
    if (bound.getAttribute(ProviderOrigin.ATTRIBUTE) == origin) {
      bound.removeAttribute(ProviderOrigin.ATTRIBUTE);
    }
  }

  /**
   * The app's own request as it was, with its body read into memory (or its stream, if not yet
   * sent), to the app's consumer.
   *
   * @throws IllegalStateException a streamed body already sent: it cannot be sent again
   */
  void sendOriginal(byte[] body, AsyncResponseConsumer<Object> consumer,
      FutureCallback<Object> done) {
    HttpContext bound = boundTo(outbound.uri());
    Unbinding unbinding = new Unbinding(done, bound);
    try {
      passThrough(client, target, producer(original, body), consumer, push, bound, unbinding);
    } catch (RuntimeException e) {
      unbind(bound, unbinding.origin);
      throw e;
    }
  }

  /** A streamed body never sent (Tollgate answered instead): its producer's resources freed. */
  void releaseUnsent() {
    AsyncRequestProducer unsent = unsentStream.getAndSet(null);
    if (unsent != null) {
      unsent.releaseResources();
    }
  }

  boolean isClientFailure(Throwable error) {
    return clientFailures.contains(error);
  }

  private AsyncRequestProducer producer(HttpRequest request, byte[] body) {
    if (streamed) {
      AsyncRequestProducer once = request == original ? unsentStream.getAndSet(null) : null;
      if (once == null) {
        throw new IllegalStateException("a streamed request body is sent once, as addressed");
      }
      return once;
    }
    return new BasicRequestProducer(request,
        described == null ? null : new BytesEntityProducer(body, described));
  }

  private HttpRequest rebuilt(OutboundRequest plan) {
    ConfigurableHttpRequest request = new ConfigurableHttpRequest(plan.method(), plan.uri());
    for (Headers.Field field : plan.headers().fields()) {
      if (GatedRequests.carriedOver(field.name())) {
        request.addHeader(field.name(), field.value());
      }
    }
    if (original instanceof Configurable) {
      RequestConfig config = ((Configurable) original).getConfig();
      if (config != null) {
        request.setConfig(config);
      }
    }
    return request;
  }

  @Override
  public int status(AsyncAttempt attempt) {
    return attempt.response().getCode();
  }

  @Override
  public Headers headers(AsyncAttempt attempt) {
    return Classic5Messages.headersOf(attempt.response());
  }

  @Override
  public void discard(AsyncAttempt attempt) {
    attempt.discard();
  }

  /** {@code done}, once the origin its request named in {@code bound} is taken out. */
  private static final class Unbinding implements FutureCallback<Object> {
    private final FutureCallback<Object> done;
    private final HttpContext bound;
    private final Object origin;

    Unbinding(FutureCallback<Object> done, HttpContext bound) {
      this.done = done;
      this.bound = bound;
      this.origin = bound.getAttribute(ProviderOrigin.ATTRIBUTE);
    }

    @Override
    public void completed(Object result) {
      unbind(bound, origin);
      done.completed(result);
    }

    @Override
    public void failed(Exception cause) {
      unbind(bound, origin);
      done.failed(cause);
    }

    @Override
    public void cancelled() {
      unbind(bound, origin);
      done.cancelled();
    }
  }

  /** The client's callback for an attempt: a failure before the head fails the attempt. */
  private static final class Ended implements FutureCallback<Object> {
    private final AsyncAttempt attempt;
    private final HttpContext bound;
    private final Object origin;

    Ended(AsyncAttempt attempt, HttpContext bound) {
      this.attempt = attempt;
      this.bound = bound;
      this.origin = bound.getAttribute(ProviderOrigin.ATTRIBUTE);
    }

    @Override
    public void completed(Object result) {
      unbind(bound, origin); // the response went where the gate sent it
    }

    @Override
    public void failed(Exception cause) {
      unbind(bound, origin);
      attempt.exchangeFailed(cause);
    }

    @Override
    public void cancelled() {
      unbind(bound, origin);
      attempt.exchangeFailed(new CancellationException("attempt cancelled"));
    }
  }
}
