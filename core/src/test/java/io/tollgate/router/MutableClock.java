package io.tollgate.router;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that moves only when a test says so. */
final class MutableClock extends Clock {

  static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  private final AtomicReference<Instant> now = new AtomicReference<>(START);

  @Override
  public Instant instant() {
    return now.get();
  }

  void advance(Duration duration) {
    now.updateAndGet(instant -> instant.plus(duration));
  }

  /** Moves to {@code START + since}. */
  void setTo(Duration since) {
    now.set(START.plus(since));
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a test clock has one zone");
  }
}
