package io.tollgate.router;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when a test says so. */
final class SteppedClock extends Clock {

  private volatile Instant now = Instant.parse("2027-01-01T00:00:00Z");

  void advance(Duration duration) {
    now = now.plus(duration);
  }

  void stepBack(Duration duration) {
    now = now.minus(duration);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException();
  }
}
