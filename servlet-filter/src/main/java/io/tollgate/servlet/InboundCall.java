package io.tollgate.servlet;

import io.tollgate.gate.Admission;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * One admitted request, from the gate's {@link Admission} to its settle: shows the admission the
 * response body as the app writes it, and settles it as soon as the body is known to be complete:
 * when the app closes the response's stream or writer, calls {@code AsyncContext.complete()}, or
 * returns from the filter chain without going asynchronous; else on the container's {@link
 * AsyncListener} events. Settling before the container ends the response means a client never sees
 * its answer end before its tokens are settled. What is settled is the gate's rule ({@link
 * Admission#settle}); the admission settles once, whichever event comes first.
 */
final class InboundCall implements AsyncListener {

  private final Admission admission;
  private final HttpServletResponse response;
  private final Supplier<String> contentType;

  InboundCall(Admission admission, HttpServletResponse response) {
    this.admission = admission;
    this.response = response;
    this.contentType = response::getContentType;
  }

  /** Bytes of the response body, just written by the app. */
  void onBytes(byte[] b, int off, int len) {
    admission.onBytes(b, off, len, contentType);
  }

  /** The app reset the response before committing it: what it wrote so far was never sent. */
  void restart() {
    admission.restart();
  }

  /** The body is complete, or the request failed with {@code failure} (what the app threw, or null). */
  void end(Throwable failure) {
    admission.settle(response.getStatus(), failure);
  }

  @Override
  public void onComplete(AsyncEvent event) {
    end(null);
  }

  @Override
  public void onTimeout(AsyncEvent event) {
    end(new TimeoutException("the asynchronous request timed out"));
  }

  @Override
  public void onError(AsyncEvent event) {
    end(event.getThrowable() != null ? event.getThrowable() : new IllegalStateException("async error"));
  }

  @Override
  public void onStartAsync(AsyncEvent event) {
    // Registered again by InboundRequest each time the app starts asynchronous processing.
  }
}
