package io.tollgate.router;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A request body Tollgate does not hold whole: past what it holds (at most {@code
 * tokens.max-buffered-body}), the body streams from the app to the provider as the client sends
 * it, and is sent once. Its length is the one the app declared, else the bytes counted as they
 * pass: the front end counts every byte it takes from the app's body ({@link #passed}), the held
 * ones included. Thread-safe: counted on the client's thread, read by the gate's.
 */
public final class StreamedBody {

  private final long declaredLength;
  private final AtomicLong passed = new AtomicLong();

  private StreamedBody(long declaredLength) {
    this.declaredLength = declaredLength;
  }

  /** A body of {@code declaredLength} bytes, as the app declared it; negative when it declared none. */
  public static StreamedBody ofLength(long declaredLength) {
    return new StreamedBody(declaredLength < 0 ? -1 : declaredLength);
  }

  /** A body of a length the app did not declare (chunked). */
  public static StreamedBody ofUnknownLength() {
    return new StreamedBody(-1);
  }

  /** {@code bytes} more of the body were taken from the app's body. */
  public void passed(long bytes) {
    if (bytes > 0) {
      passed.addAndGet(bytes);
    }
  }

  /** The length the app declared, empty when it declared none. */
  public OptionalLong declaredLength() {
    return declaredLength < 0 ? OptionalLong.empty() : OptionalLong.of(declaredLength);
  }

  /** The bytes counted so far. */
  public long passedBytes() {
    return passed.get();
  }

  /**
   * The body's length as far as it is known now: the declared one, else the bytes counted so far
   * (all of them once the body has been sent).
   */
  public long knownLength() {
    return declaredLength >= 0 ? declaredLength : passed.get();
  }

  @Override
  public String toString() {
    return declaredLength >= 0 ? "a streamed body of " + declaredLength + " bytes"
        : "a streamed body of unknown length (" + passed.get() + " bytes so far)";
  }
}
