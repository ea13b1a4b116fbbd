package io.tollgate.servlet;

import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Reservation;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.Usage;
import io.tollgate.llm.UsageTap;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * One admitted request, from its reservation to its settle: shown the response body as the app
 * writes it, settled once, as soon as the body is known to be complete: when the app closes the
 * response's stream or writer, calls {@code AsyncContext.complete()}, or returns from the filter
 * chain without going asynchronous; else on the container's {@link AsyncListener} events. Settling
 * before the container ends the response means a client never sees its answer end before its
 * tokens are settled.
 *
 * <p>What is settled: the usage the response reports (or the protocol's estimate of an LLM
 * response that reports none); else nothing for a failed request (an exception, a timeout, a
 * status of 400 or more: the request stays counted, its tokens are refunded), nor for a request
 * without a body (a page, a GET of the app's API: it asked nothing of an LLM itself, and the calls
 * it made are charged to the tenant's outbound bucket); else the estimate.
 */
final class InboundCall implements AsyncListener {

  private static final System.Logger LOG = System.getLogger(TollgateFilter.class.getName());

  private final RateLimiter limiter;
  private final Reservation reservation;
  private final LlmProtocol protocol;
  /** What the request body said, or null when the filter did not read it. */
  private final LlmRequest request;
  private final HttpServletResponse response;
  /** False when the tenant has no token limit: nothing to learn from the body. */
  private final boolean observe;
  /** A GET, a HEAD or an empty body: answered without usage, it costs no tokens. */
  private final boolean bodiless;
  private final InboundTrace trace;
  /** See the constructor; null when the estimate does not change once the body is read. */
  private final LongSupplier readSoFar;
  private final AtomicBoolean settled = new AtomicBoolean();
  /** Made at the first byte, when the response's content type is known; guarded by this. */
  private UsageTap tap;

  /**
   * @param readSoFar for a body held in part whose length was not declared: the bytes of it known
   *     so far (held, and read by the app), for the settle of an answer without usage; else null
   */
  InboundCall(RateLimiter limiter, Reservation reservation, LlmProtocol protocol, LlmRequest request,
      HttpServletResponse response, boolean observe, boolean bodiless, InboundTrace trace,
      LongSupplier readSoFar) {
    this.trace = trace;
    this.readSoFar = readSoFar;
    this.limiter = limiter;
    this.reservation = reservation;
    this.protocol = protocol;
    this.request = request;
    this.response = response;
    this.observe = observe;
    this.bodiless = bodiless;
  }

  /** Bytes of the response body, just written by the app. */
  synchronized void onBytes(byte[] b, int off, int len) {
    if (!observe || len <= 0 || settled.get()) {
      return;
    }
    if (tap == null) {
      String contentType = response.getContentType();
      LlmRequest read = asRead();
      tap = read != null ? protocol.newUsageTap(contentType, read) : protocol.newUsageTap(contentType, false);
    }
    tap.onBytes(b, off, len);
  }

  /** The app reset the response before committing it: what it wrote so far was never sent. */
  synchronized void restart() {
    tap = null;
  }

  /** The body is complete, or the request failed with {@code failure} (what the app threw, or null). */
  void end(Throwable failure) {
    settle(failure);
  }

  @Override
  public void onComplete(AsyncEvent event) {
    settle(null);
  }

  @Override
  public void onTimeout(AsyncEvent event) {
    settle(new TimeoutException("the asynchronous request timed out"));
  }

  @Override
  public void onError(AsyncEvent event) {
    settle(event.getThrowable() != null ? event.getThrowable() : new IllegalStateException("async error"));
  }

  @Override
  public void onStartAsync(AsyncEvent event) {
    // Registered again by InboundRequest each time the app starts asynchronous processing.
  }

  private void settle(Throwable failure) {
    if (!settled.compareAndSet(false, true)) {
      return;
    }
    Usage usage;
    synchronized (this) {
      if (tap == null) {
        usage = Usage.unknown();
      } else {
        if (failure == null) {
          tap.onEnd();
        } else {
          tap.onError(failure);
        }
        usage = tap.result();
      }
    }
    long estimate = readSoFar == null ? reservation.tokens() : asRead().estimate().totalTokens();
    long tokens = tokensToSettle(usage, response.getStatus(), failure != null, bodiless, estimate);
    try {
      limiter.settle(reservation, tokens);
    } catch (RuntimeException e) {
      // The response is gone already; the reservation keeps its estimate until its record expires.
      LOG.log(Level.WARNING, "settling " + reservation + " with " + tokens + " tokens failed", e);
    }
    trace.settled(usage, tokens, response.getStatus(), failure);
  }

  /**
   * The request as far as the app has read it: a chunked body held in part is estimated again by
   * the bytes read so far (all of them once the app has read it), never below its reserve.
   */
  private LlmRequest asRead() {
    if (readSoFar == null || request == null) {
      return request;
    }
    LlmRequest sized = request.withPromptBySize(readSoFar.getAsLong());
    return sized.estimate().totalTokens() < request.estimate().totalTokens() ? request : sized;
  }

  /** The rule of the class comment. */
  static long tokensToSettle(Usage usage, int status, boolean failed, boolean bodiless, long estimate) {
    if (usage.known()) {
      return usage.totalTokens();
    }
    if (failed || status >= 400 || bodiless) {
      return 0;
    }
    return estimate;
  }
}
