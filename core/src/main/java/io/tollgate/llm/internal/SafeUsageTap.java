package io.tollgate.llm.internal;

import io.tollgate.llm.Usage;
import io.tollgate.llm.UsageTap;
import java.lang.System.Logger.Level;

/**
 * The guarantees every tap gives, in one place: no call throws, bad arguments are ignored, the
 * first internal failure makes the usage unknown (logged at DEBUG, once per tap: it is about one
 * response, not an episode), and after the end the result is computed once. Calls are
 * serialized, so an async client may end or query a tap from another thread; uncontended, the
 * lock costs nanoseconds per chunk.
 */
abstract class SafeUsageTap implements UsageTap {

  private static final System.Logger LOG = System.getLogger(UsageTap.class.getName());

  private boolean broken;
  private boolean finished;
  private Usage finalResult;

  @Override
  public final synchronized void onBytes(byte[] b, int off, int len) {
    if (broken || finished || b == null || len <= 0 || off < 0 || len > b.length - off) {
      return;
    }
    try {
      bytes(b, off, len);
    } catch (RuntimeException | StackOverflowError e) {
      broke(e);
    }
  }

  @Override
  public final synchronized void onEnd() {
    finish();
  }

  @Override
  public final synchronized void onError(Throwable error) {
    finish(); // what was seen before the failure still counts
  }

  @Override
  public final synchronized Usage result() {
    if (broken) {
      return Usage.unknown();
    }
    if (finished && finalResult != null) {
      return finalResult;
    }
    Usage usage;
    try {
      usage = compute();
    } catch (RuntimeException | StackOverflowError e) {
      broke(e);
      return Usage.unknown();
    }
    if (finished) {
      finalResult = usage;
    }
    return usage;
  }

  private void finish() {
    if (finished || broken) {
      finished = true;
      return;
    }
    finished = true;
    try {
      end();
    } catch (RuntimeException | StackOverflowError e) {
      broke(e);
    }
  }

  private void broke(Throwable e) {
    broken = true;
    LOG.log(Level.DEBUG, "Tollgate: reading a response's usage failed; its usage is unknown", e);
  }

  /** The next bytes; may throw, the caller never sees it. */
  abstract void bytes(byte[] b, int off, int len);

  /** The body ended. */
  abstract void end();

  /** The usage from what was seen. */
  abstract Usage compute();
}
