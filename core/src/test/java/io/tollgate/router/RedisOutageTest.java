package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.BreakerConfig;
import io.tollgate.config.RedisConfig;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis stopped under two instances: each keeps its breakers on its own, with no exception and no
 * wait, and what happened meanwhile is shared once Redis is back; breakers made while Redis is
 * down share from the moment it answers. The breakers run on a fake
 * clock (Redis plays no part while it is down).
 */
class RedisOutageTest {

  private final MutableClock clock = new MutableClock();
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private RedisServer server;

  @BeforeEach
  void start() {
    server = RedisServer.start();
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable closeable : closeables) {
      closeable.close();
    }
    server.close();
  }

  private ProviderBreakers instance() {
    RedisConnection client = RedisConnection.standalone(server.uri())
        .timeout(Duration.ofMillis(100)).poolSize(4).build();
    ProviderBreakers breakers =
        ProviderBreakers.builder(BreakerConfig.ofDefaults()).clock(clock).redis(client).build();
    closeables.add(0, client);
    closeables.add(0, breakers);
    return breakers;
  }

  @Test
  void breakersKeepWorkingLocallyWhileRedisIsDownAndShareAgainWhenItIsBack() {
    ProviderBreakers fleetA = instance();
    ProviderBreakers fleetB = instance();
    ProviderBreaker a = fleetA.breaker("openai");
    ProviderBreaker b = fleetB.breaker("openai");

    server.stop();
    Poll.until(Duration.ofSeconds(10), "both instances noticing",
        () -> !fleetA.isShared() && !fleetB.isShared());

    // opened, probed and reopened here alone, every call answered at once
    long start = System.nanoTime();
    for (int i = 0; i < 3; i++) {
      a.onFailure(FailureKind.CONNECTION);
    }
    assertThat(a.state()).isEqualTo(BreakerState.OPEN);
    assertThat(a.openUntil()).contains(MutableClock.START.plusSeconds(30));
    assertThat(a.tryAcquirePermission()).isFalse();
    assertThat(b.tryAcquirePermission()).isTrue(); // b cannot know
    clock.advance(Duration.ofSeconds(30));
    assertThat(a.tryAcquirePermission()).isTrue(); // a local probe: no election without Redis
    assertThat(a.tryAcquirePermission()).isFalse();
    a.onFailure(FailureKind.CONNECTION);
    assertThat(a.openUntil()).contains(MutableClock.START.plusSeconds(90));
    for (int i = 0; i < 1_000; i++) {
      a.tryAcquirePermission();
      b.tryAcquirePermission();
      b.onSuccess(Duration.ofMillis(5));
    }
    // a Redis timeout (100 ms) per call would take minutes
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));

    server.restart();
    Poll.until(Duration.ofSeconds(10), "b learning of a's open breaker", () -> !b.tryAcquirePermission());
    // a marks itself shared when its exchange has returned, which may be just after b read it
    Poll.until(Duration.ofSeconds(10), "both sharing again", () -> fleetA.isShared() && fleetB.isShared());

    assertThat(b.state()).isEqualTo(BreakerState.OPEN);
    assertThat(b.openedBy()).contains(OpenedBy.FLEET);
    Instant now = clock.instant();
    assertThat(b.openUntil().orElseThrow()).isBetween(now.plusSeconds(50), now.plusSeconds(60));
  }

  @Test
  void breakersMadeWhileRedisIsDownShareFromTheMomentItAnswers() {
    server.stop();
    RedisConnection connection = RedisConfig.builder()
        .url(server.uri()).timeout(Duration.ofMillis(100)).build().newConnection();
    ProviderBreakers late =
        ProviderBreakers.create(BreakerConfig.ofDefaults(), Optional.of(connection), clock);
    closeables.add(0, connection);
    closeables.add(0, late);
    ProviderBreaker lateBreaker = late.breaker("openai");
    for (int i = 0; i < 3; i++) {
      lateBreaker.onFailure(FailureKind.CONNECTION);
    }
    assertThat(lateBreaker.state()).isEqualTo(BreakerState.OPEN);
    Poll.until(Duration.ofSeconds(10), "the breakers finding no Redis", () -> !late.isShared());

    server.restart();
    Poll.until(Duration.ofSeconds(10), "the breakers sharing once Redis answers", late::isShared);
    ProviderBreakers other = instance();
    ProviderBreaker otherBreaker = other.breaker("openai");
    FleetEpisodes.awaitLearned(otherBreaker, lateBreaker);
  }

  @Test
  void aBreakerOpenedByTheFleetProbesLocallyWhenRedisGoesAway() {
    ProviderBreakers fleetA = instance();
    ProviderBreakers fleetB = instance();
    ProviderBreaker a = fleetA.breaker("anthropic");
    ProviderBreaker b = fleetB.breaker("anthropic");
    for (int i = 0; i < 3; i++) {
      a.onFailure(FailureKind.RATE_LIMITED);
    }
    Poll.until(Duration.ofSeconds(5), "b refusing calls", () -> !b.tryAcquirePermission());

    server.stop();
    Poll.until(Duration.ofSeconds(10), "b noticing", () -> !fleetB.isShared());
    clock.advance(Duration.ofSeconds(30));

    assertThat(b.tryAcquirePermission()).isTrue();
    assertThat(b.tryAcquirePermission()).isFalse();
    b.onSuccess(Duration.ofMillis(5));
    assertThat(b.state()).isEqualTo(BreakerState.CLOSED);
  }
}
