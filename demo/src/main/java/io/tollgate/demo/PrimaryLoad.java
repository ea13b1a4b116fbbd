package io.tollgate.demo;

import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.time.Duration;
import java.util.List;

/**
 * Plays the primary's {@link Phase}s: every {@link #TICK} it looks at how many calls the primary has
 * received in the current second and sets the fault the next calls get. A provider's per-second
 * capacity, to within one tick.
 */
final class PrimaryLoad implements Runnable {

  static final Duration TICK = Duration.ofMillis(50);

  private final MockLlmServer primary;
  private final Duration run;
  private final long startEpochMillis;
  private int seen;
  private long second = -1;
  private int callsThisSecond;

  PrimaryLoad(MockLlmServer primary, Duration run, long startEpochMillis) {
    this.primary = primary;
    this.run = run;
    this.startEpochMillis = startEpochMillis;
  }

  @Override
  public void run() {
    long now = System.currentTimeMillis();
    long currentSecond = now / 1000;
    if (currentSecond != second) {
      second = currentSecond;
      callsThisSecond = 0;
    }
    List<RecordedRequest> requests = primary.requests();
    for (RecordedRequest request : requests.subList(seen, requests.size())) {
      if (request.arrivedAt().toEpochMilli() / 1000 == currentSecond) {
        callsThisSecond++;
      }
    }
    seen = requests.size();
    Phase.at(Duration.ofMillis(now - startEpochMillis), run).apply(primary.script(), callsThisSecond);
  }
}
