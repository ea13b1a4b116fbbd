package io.tollgate.limiter;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test says so. */
final class FakeClock implements MicroClock {

  private final AtomicLong now = new AtomicLong(1_800_000_000_000_000L);

  @Override
  public long nowMicros() {
    return now.get();
  }

  void advance(Duration duration) {
    now.addAndGet(duration.toNanos() / 1000);
  }
}
