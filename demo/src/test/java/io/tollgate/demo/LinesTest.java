package io.tollgate.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the driver reads the app's and the agent's lines, and what it makes of a call's route. */
class LinesTest {

  @Test
  void readsTheAppsCallLine() {
    CallOutcome call = CallOutcome.parse(
        "call id=okhttp-1-4 client=okhttp stream=true status=200 model=gpt-4o prompt=18 completion=20 ms=231", 1500)
        .orElseThrow();

    assertThat(call).isEqualTo(new CallOutcome("okhttp-1-4", "okhttp", true, 200, "gpt-4o", 18, 20, 231, null, 1500));
    assertThat(call.usedTokens()).isEqualTo(38);
    assertThat(CallOutcome.parse("call id=jdk-2-7 client=jdk stream=false status=503 model=- prompt=- completion=-"
        + " ms=12 error=server_error", 0).orElseThrow())
        .isEqualTo(new CallOutcome("jdk-2-7", "jdk", false, 503, "-", -1, -1, 12, "server_error", 0));
    assertThat(CallOutcome.parse("start clients=okhttp threads=2", 0)).isEmpty();
  }

  /** The line java.util.logging prints for the core's breaker log record under {@link BreakerEvent#LOG_FORMAT_OPTION}. */
  @Test
  void readsTheCoresBreakerLogLine() {
    String line = "tollgate-log 1764421212345 INFO circuit breaker of provider demo-primary: CLOSED -> OPEN"
        + " (FAILURES), open until 2025-11-29T13:00:15.345Z";

    assertThat(BreakerEvent.parse(line, 1764421200000L)).contains(
        new BreakerEvent(12345, "demo-primary", "CLOSED", "OPEN", "FAILURES"));
    assertThat(BreakerEvent.parse("tollgate-log 1 WARNING Redis limiter unreachable", 0)).isEmpty();
  }

  @Test
  void keepsTheCoresOtherLogRecordsWithTheirTimes() {
    assertThat(BreakerEvent.logLine("tollgate-log 1764421201250 WARNING Redis limiter unreachable; deciding"
        + " locally with 1.0 of each limit until it answers", 1764421200000L))
        .isEqualTo("1.3s WARNING Redis limiter unreachable; deciding locally with 1.0 of each limit until it answers");
  }

  @Test
  void readsTheInstrumentedClientsFromTheAgentsStartLine() {
    Set<String> modules = Instrumented.modules("[tollgate] on: mode enforce, providers [demo-primary, demo-backup],"
        + " limiter in-memory, instrumented [okhttp]").orElseThrow();

    assertThat(modules).containsExactly("okhttp");
    assertThat(Instrumented.covers(modules, "okhttp")).isTrue();
    assertThat(Instrumented.covers(modules, "jdk")).isFalse();
    assertThat(Instrumented.covers(modules, "apache")).isFalse();
    assertThat(Instrumented.modules("[tollgate] disabled: no configuration")).isEmpty();
    Set<String> more = Set.of("okhttp", "jdk-httpclient", "httpclient5");
    assertThat(Instrumented.covers(more, "jdk")).isTrue();
    assertThat(Instrumented.covers(more, "apache")).isTrue();
  }

  @Test
  void aCallsFateFollowsFromWhereItArrived() {
    CallOutcome ok = call(200);
    CallOutcome refused = call(429);

    assertThat(Fate.of(ok, true, false)).isEqualTo(Fate.PRIMARY);
    assertThat(Fate.of(ok, true, true)).isEqualTo(Fate.FALLBACK_AFTER_ERROR);
    assertThat(Fate.of(ok, false, true)).isEqualTo(Fate.FALLBACK_SKIPPED_PRIMARY);
    assertThat(Fate.of(refused, false, false)).isEqualTo(Fate.LIMITED);
    assertThat(Fate.of(call(503), false, false)).isEqualTo(Fate.NO_PROVIDER);
    assertThat(Fate.of(refused, true, false)).isEqualTo(Fate.PROVIDER_ERROR);
    assertThat(Fate.of(call(-1), false, false)).isEqualTo(Fate.NO_RESPONSE);
  }

  private static CallOutcome call(int status) {
    return new CallOutcome("okhttp-1-1", "okhttp", false, status, "-", -1, -1, 10, null, 0);
  }
}
