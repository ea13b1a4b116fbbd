package io.tollgate.gate;

import io.tollgate.llm.Usage;
import io.tollgate.llm.UsageTap;
import io.tollgate.llm.UsageTappingInputStream;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Watches a response body as the app reads it and settles the call's reservations once, when the
 * body ends, fails or is closed. It only observes copies: not a byte is changed, delayed or dropped.
 */
public final class UsageObserver {

  private static final UsageObserver NONE = new UsageObserver(null, usage -> { });

  private final UsageTap tap;
  private final Consumer<Usage> onComplete;
  private final AtomicBoolean completed = new AtomicBoolean();

  private UsageObserver(UsageTap tap, Consumer<Usage> onComplete) {
    this.tap = tap;
    this.onComplete = onComplete;
  }

  /** Feeds {@code tap} and hands its result to {@code onComplete} once. */
  public static UsageObserver of(UsageTap tap, Consumer<Usage> onComplete) {
    return new UsageObserver(tap, onComplete);
  }

  /** For a response nothing depends on (a pass-through, an error already accounted for). */
  public static UsageObserver none() {
    return NONE;
  }

  /** Wraps the app's view of the body; usage is settled when it ends or is closed. */
  public InputStream wrap(InputStream body) {
    if (tap == null) {
      return body;
    }
    return UsageTappingInputStream.of(body, tap, this::complete);
  }

  /** Feeds bytes the app has just read (for clients whose bodies are not InputStreams). */
  public void onBytes(byte[] bytes, int offset, int length) {
    if (tap != null && !completed.get()) {
      tap.onBytes(bytes, offset, length);
    }
  }

  /** The body ended normally. */
  public void onEnd() {
    if (tap != null && !completed.get()) {
      tap.onEnd();
      complete(tap.result());
    }
  }

  /** The body failed or was abandoned: what was seen so far is what was used. */
  public void onError(Throwable error) {
    if (tap != null && !completed.get()) {
      tap.onError(error);
      complete(tap.result());
    }
  }

  private void complete(Usage usage) {
    if (completed.compareAndSet(false, true)) {
      onComplete.accept(usage);
    }
  }
}
