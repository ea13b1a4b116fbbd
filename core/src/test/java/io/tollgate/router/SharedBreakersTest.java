package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tollgate.config.BreakerConfig;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two instances of a fleet in one JVM (two {@link ProviderBreakers}, each with its own client and
 * instance id) on one real Redis, on the real clock: an open breaker, its probe and the probe's
 * outcome reach the other instance within a second. Each test has its own provider name.
 */
class SharedBreakersTest {

  /** Short open times, so that the fleet's probes come within the test's time. */
  private static final BreakerConfig ONE_SECOND = BreakerConfig.builder()
      .openFor(Duration.ofSeconds(1)).maxOpenFor(Duration.ofSeconds(4)).build();
  private static final Duration WITHIN_A_SECOND = Duration.ofSeconds(1);

  private static RedisServer server;

  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final List<BreakerTransition> transitionsOfB = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    server = RedisServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : closeables) {
      closeable.close();
    }
  }

  private ProviderBreakers instance(BreakerConfig config) {
    RedisConnection client = RedisConnection.standalone(server.uri())
        .timeout(Duration.ofMillis(500)).poolSize(4).build();
    ProviderBreakers breakers = ProviderBreakers.builder(config).redis(client).build();
    closeables.add(0, client); // closed after the breakers
    closeables.add(0, breakers);
    return breakers;
  }

  private static void open(ProviderBreaker breaker) {
    for (int i = 0; i < 3; i++) {
      breaker.onFailure(FailureKind.SERVER_ERROR);
    }
    assertThat(breaker.state()).isEqualTo(BreakerState.OPEN);
  }

  /** Who was permitted to probe, and when the first was. */
  private record Probe(List<ProviderBreaker> permitted, Instant firstAt) {}

  /** Both ask for permission until one is given it, then a while longer. */
  private static Probe probe(ProviderBreaker a, ProviderBreaker b) {
    List<ProviderBreaker> permitted = new ArrayList<>();
    Instant firstAt = null;
    long deadline = System.nanoTime() + Duration.ofSeconds(6).toNanos();
    while (System.nanoTime() - deadline < 0) {
      for (ProviderBreaker breaker : List.of(a, b)) {
        if (breaker.tryAcquirePermission()) {
          permitted.add(breaker);
          if (firstAt == null) {
            firstAt = Instant.now();
            // three refresh intervals: time enough for a second election, were there one
            deadline = System.nanoTime() + Duration.ofMillis(750).toNanos();
          }
        }
      }
      Poll.pause(20);
    }
    return new Probe(permitted, firstAt);
  }

  @Test
  void aBreakerOpenedByOneInstanceStopsTheOtherWithinASecond() {
    BreakerConfig thirtySeconds = BreakerConfig.ofDefaults();
    ProviderBreaker a = instance(thirtySeconds).breaker("shared-open");
    ProviderBreaker b = instance(thirtySeconds).breaker("shared-open");
    assertThat(b.tryAcquirePermission()).isTrue();

    open(a);
    Duration took = Poll.until(Duration.ofSeconds(5), "b refusing calls", () -> !b.tryAcquirePermission());

    assertThat(took).isLessThan(WITHIN_A_SECOND);
    assertThat(b.state()).isEqualTo(BreakerState.OPEN);
    assertThat(b.openedBy()).contains(OpenedBy.FLEET);
    assertThat(a.openedBy()).contains(OpenedBy.LOCAL);
    assertThat(b.openUntil().orElseThrow())
        .isCloseTo(a.openUntil().orElseThrow(), within(300, ChronoUnit.MILLIS));
  }

  @Test
  void onlyOneInstanceProbesAndItsSuccessClosesBothWithinASecond() {
    ProviderBreaker a = instance(ONE_SECOND).breaker("shared-success");
    ProviderBreakers fleetB = instance(ONE_SECOND).onStateTransition(transitionsOfB::add);
    ProviderBreaker b = fleetB.breaker("shared-success");
    open(a);
    Poll.until(Duration.ofSeconds(5), "b refusing calls", () -> !b.tryAcquirePermission());

    List<ProviderBreaker> permitted = probe(a, b).permitted();

    assertThat(permitted).hasSize(1);
    ProviderBreaker prober = permitted.get(0);
    ProviderBreaker other = prober == a ? b : a;
    assertThat(other.state()).isEqualTo(BreakerState.HALF_OPEN);
    assertThat(other.tryAcquirePermission()).isFalse();

    prober.onSuccess(Duration.ofMillis(300));
    assertThat(prober.state()).isEqualTo(BreakerState.CLOSED);
    Duration took = Poll.until(Duration.ofSeconds(5), "the other closing",
        () -> other.state() == BreakerState.CLOSED);

    assertThat(took).isLessThan(WITHIN_A_SECOND);
    assertThat(other.tryAcquirePermission()).isTrue();
    assertThat(other.openedBy()).isEmpty();
    if (other == b) {
      // the listener hears of a transition just after the state shows it, on the sync thread
      Poll.until(Duration.ofSeconds(1), "b's close event",
          () -> transitionsOfB.get(transitionsOfB.size() - 1).to() == BreakerState.CLOSED);
      assertThat(transitionsOfB.get(transitionsOfB.size() - 1).reason())
          .isEqualTo(TransitionReason.FLEET_CLOSED);
    }
  }

  @Test
  void aFailedProbeReopensBothForTwiceTheOpenTime() {
    ProviderBreaker a = instance(ONE_SECOND).breaker("shared-failure");
    ProviderBreaker b = instance(ONE_SECOND).breaker("shared-failure");
    open(a);
    Poll.until(Duration.ofSeconds(5), "b refusing calls", () -> !b.tryAcquirePermission());
    List<ProviderBreaker> permitted = probe(a, b).permitted();
    assertThat(permitted).hasSize(1);
    ProviderBreaker prober = permitted.get(0);
    ProviderBreaker other = prober == a ? b : a;

    Instant before = Instant.now();
    prober.onFailure(FailureKind.TIMEOUT);
    Instant after = Instant.now();

    assertThat(prober.state()).isEqualTo(BreakerState.OPEN);
    assertThat(prober.openUntil().orElseThrow())
        .isBetween(before.plusSeconds(2), after.plusSeconds(2));
    Duration took = Poll.until(Duration.ofSeconds(5), "the other reopening",
        () -> other.state() == BreakerState.OPEN);
    assertThat(took).isLessThan(WITHIN_A_SECOND);
    assertThat(other.openedBy()).contains(OpenedBy.FLEET);
    assertThat(other.openUntil().orElseThrow())
        .isCloseTo(prober.openUntil().orElseThrow(), within(300, ChronoUnit.MILLIS));

    // the next probe, again only one, waits for the longer open time
    Probe next = probe(a, b);
    assertThat(next.permitted()).hasSize(1);
    assertThat(next.firstAt()).isAfterOrEqualTo(prober.openUntil().orElseThrow().minusMillis(20));
  }

  @Test
  void aBreakerOfAnotherProviderIsNotAffected() {
    ProviderBreaker a = instance(BreakerConfig.ofDefaults()).breaker("shared-one");
    ProviderBreakers fleetB = instance(BreakerConfig.ofDefaults());
    ProviderBreaker sameProvider = fleetB.breaker("shared-one");
    ProviderBreaker otherProvider = fleetB.breaker("shared-two");

    open(a);
    Poll.until(Duration.ofSeconds(5), "b refusing calls", () -> !sameProvider.tryAcquirePermission());

    assertThat(otherProvider.tryAcquirePermission()).isTrue();
    assertThat(otherProvider.state()).isEqualTo(BreakerState.CLOSED);
    assertThat(fleetB.isShared()).isTrue();
  }
}
