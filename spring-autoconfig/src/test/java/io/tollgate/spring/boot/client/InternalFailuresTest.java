package io.tollgate.spring.boot.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every failure counted; each kind logged at most once a minute, on a clock the test moves. */
class InternalFailuresTest {

  private Instant now = Instant.parse("2026-01-01T00:00:00Z");
  private final List<String> logged = new ArrayList<>();
  private final InternalFailures failures = new InternalFailures(new Clock() {
    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }, (line, error) -> logged.add(line));

  @Test
  void logsEachKindAtMostOnceAMinuteAndCountsEveryFailure() {
    failures.record("rest-client", new IllegalStateException("first"));
    now = now.plus(Duration.ofSeconds(59));
    failures.record("rest-client", new IllegalStateException("within the minute"));
    failures.record("rest-client", new IllegalArgumentException("another kind"));
    failures.record("web-client", new IllegalStateException("another place"));
    now = now.plus(Duration.ofSeconds(1));
    failures.record("rest-client", new IllegalStateException("a minute after the first"));

    assertThat(logged).containsExactly(
        "Tollgate: internal failure in rest-client (the call proceeds as if Tollgate were absent; "
            + "logged at most once a minute for this kind, 1 so far): "
            + "java.lang.IllegalStateException: first",
        "Tollgate: internal failure in rest-client (the call proceeds as if Tollgate were absent; "
            + "logged at most once a minute for this kind, 1 so far): "
            + "java.lang.IllegalArgumentException: another kind",
        "Tollgate: internal failure in web-client (the call proceeds as if Tollgate were absent; "
            + "logged at most once a minute for this kind, 1 so far): "
            + "java.lang.IllegalStateException: another place",
        "Tollgate: internal failure in rest-client (the call proceeds as if Tollgate were absent; "
            + "logged at most once a minute for this kind, 3 so far): "
            + "java.lang.IllegalStateException: a minute after the first");
    assertThat(failures.count("rest-client")).isEqualTo(4);
    assertThat(failures.count("web-client")).isEqualTo(1);
  }
}
