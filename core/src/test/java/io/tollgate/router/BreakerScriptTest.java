package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.BreakerConfig;
import io.tollgate.redis.RedisConnection;
import io.tollgate.router.internal.BreakerSettings;
import io.tollgate.router.internal.RedisBreakerStore;
import io.tollgate.router.internal.SharedState;
import io.tollgate.router.internal.SharedState.Prober;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Clock;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * {@code lua/breaker.lua} against a real Redis, through two stores as two instances of a fleet
 * would run it. Each test uses its own provider name, so its own keys.
 */
class BreakerScriptTest {

  private static final Duration LOCK_TTL = Duration.ofSeconds(2);
  private static final Duration MAX_OPEN_FOR = Duration.ofMinutes(5);

  private static RedisServer server;
  private static RedisConnection client;
  private static RedisBreakerStore one;
  private static RedisBreakerStore other;

  @BeforeAll
  static void start() {
    server = RedisServer.start();
    client = RedisConnection.standalone(server.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(4).build();
    BreakerSettings settings = new BreakerSettings(BreakerConfig.ofDefaults(), Clock.systemUTC(),
        new Random(), Duration.ZERO, Duration.ofMillis(250), LOCK_TTL, Duration.ofMinutes(2));
    one = new RedisBreakerStore(client, settings);
    other = new RedisBreakerStore(client, settings);
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  private static long ttl(String key) {
    try (Jedis jedis = server.jedis()) {
      return jedis.pttl(key);
    }
  }

  @Test
  void keysShareOneHashTagAndNeverHoldTheProviderName() {
    String state = RedisBreakerStore.stateKey("openai");
    String probe = RedisBreakerStore.probeKey("openai");

    assertThat(state).matches("tg:\\{breaker:[A-Za-z0-9_-]{20}}:state").doesNotContain("openai");
    assertThat(probe).isEqualTo(state.replace(":state", ":probe"));
    assertThat(RedisBreakerStore.stateKey("backup")).isNotEqualTo(state);
  }

  @Test
  void nothingIsSharedUntilABreakerOpens() {
    assertThat(one.sync("closed-provider", true)).isEqualTo(SharedState.NONE);
  }

  @Test
  void openStartsAnEpisodeThatOutlivesItsOpenTimeByMaxOpenFor() {
    SharedState opened = one.open("p-open", 1, Duration.ofSeconds(30));

    assertThat(opened.exists()).isTrue();
    assertThat(opened.attempt()).isEqualTo(1);
    assertThat(opened.remainingMillis()).isEqualTo(30_000);
    assertThat(opened.probe()).isEqualTo(Prober.NOBODY);
    assertThat(ttl(RedisBreakerStore.stateKey("p-open")))
        .isBetween(30_000 + MAX_OPEN_FOR.toMillis() - 1_000, 30_000 + MAX_OPEN_FOR.toMillis());
  }

  @Test
  void aSecondOpenJoinsTheEpisodeInsteadOfStartingAnother() {
    SharedState first = one.open("p-join", 1, Duration.ofSeconds(30));

    SharedState second = other.open("p-join", 1, Duration.ofSeconds(45));

    assertThat(second.generation()).isEqualTo(first.generation());
    assertThat(second.attempt()).isEqualTo(1);
    assertThat(second.remainingMillis()).isBetween(29_000L, 30_000L);
  }

  @Test
  void nobodyTakesTheProbeWhileTheOpenTimeLasts() {
    one.open("p-early", 1, Duration.ofSeconds(30));

    SharedState synced = one.sync("p-early", true);

    assertThat(synced.probe()).isEqualTo(Prober.NOBODY);
    assertThat(ttl(RedisBreakerStore.probeKey("p-early"))).isEqualTo(-2);
  }

  @Test
  void onlyOneInstanceTakesTheProbeOnceTheOpenTimeIsOver() {
    one.open("p-elect", 1, Duration.ZERO);

    SharedState first = one.sync("p-elect", true);
    SharedState second = other.sync("p-elect", true);
    SharedState again = one.sync("p-elect", true);

    assertThat(first.probe()).isEqualTo(Prober.THIS_INSTANCE);
    assertThat(second.probe()).isEqualTo(Prober.ANOTHER_INSTANCE);
    assertThat(again.probe()).isEqualTo(Prober.THIS_INSTANCE);
    assertThat(ttl(RedisBreakerStore.probeKey("p-elect"))).isBetween(1_000L, LOCK_TTL.toMillis());
  }

  @Test
  void theProberLetsGoWhenItNoLongerWantsTheProbe() {
    one.open("p-letgo", 1, Duration.ZERO);
    one.sync("p-letgo", true);

    assertThat(other.sync("p-letgo", false).probe()).isEqualTo(Prober.ANOTHER_INSTANCE);
    assertThat(one.sync("p-letgo", false).probe()).isEqualTo(Prober.NOBODY);
    assertThat(other.sync("p-letgo", true).probe()).isEqualTo(Prober.THIS_INSTANCE);
  }

  @Test
  void onlyTheHolderReleasesTheLock() {
    one.open("p-release", 1, Duration.ZERO);
    one.sync("p-release", true);

    assertThat(other.releaseProbe("p-release").probe()).isEqualTo(Prober.ANOTHER_INSTANCE);
    assertThat(one.releaseProbe("p-release").probe()).isEqualTo(Prober.NOBODY);
  }

  @Test
  void aSucceededProbeEndsTheEpisodeForEveryone() {
    SharedState opened = one.open("p-success", 1, Duration.ZERO);
    one.sync("p-success", true);

    SharedState closed = one.probeSucceeded("p-success", opened.generation());

    assertThat(closed).isEqualTo(SharedState.NONE);
    assertThat(other.sync("p-success", false)).isEqualTo(SharedState.NONE);
    assertThat(ttl(RedisBreakerStore.stateKey("p-success"))).isEqualTo(-2);
    assertThat(ttl(RedisBreakerStore.probeKey("p-success"))).isEqualTo(-2);
  }

  @Test
  void aSuccessOfAnEarlierEpisodeDoesNotCloseALaterOne() {
    SharedState opened = one.open("p-stale", 1, Duration.ofSeconds(30));

    SharedState after = other.probeSucceeded("p-stale", opened.generation() - 1);

    assertThat(after.generation()).isEqualTo(opened.generation());
    assertThat(after.attempt()).isEqualTo(1);
  }

  @Test
  void aFailedProbeReopensForTheNextOpenTimeOncePerAttempt() {
    SharedState opened = one.open("p-fail", 1, Duration.ZERO);
    one.sync("p-fail", true);

    SharedState reopened = one.probeFailed("p-fail", opened.generation(), 1, Duration.ofSeconds(60));
    SharedState repeated = other.probeFailed("p-fail", opened.generation(), 1, Duration.ofSeconds(60));

    assertThat(reopened.generation()).isEqualTo(opened.generation());
    assertThat(reopened.attempt()).isEqualTo(2);
    assertThat(reopened.remainingMillis()).isEqualTo(60_000);
    assertThat(reopened.probe()).isEqualTo(Prober.NOBODY);
    assertThat(repeated.attempt()).isEqualTo(2);
    assertThat(repeated.remainingMillis()).isBetween(59_000L, 60_000L);
    assertThat(ttl(RedisBreakerStore.probeKey("p-fail"))).isEqualTo(-2);
  }

  @Test
  void aFailedProbeWithNoEpisodeLeftStartsOneAtTheNextAttempt() {
    SharedState reopened = one.probeFailed("p-gone", 12345, 2, Duration.ofSeconds(120));

    assertThat(reopened.exists()).isTrue();
    assertThat(reopened.generation()).isNotEqualTo(12345);
    assertThat(reopened.attempt()).isEqualTo(3);
    assertThat(reopened.remainingMillis()).isEqualTo(120_000);
  }

  @Test
  void anEpisodeOutlivesTheLockOfItsProber() {
    one.open("p-outlive", 1, Duration.ZERO);
    try (Jedis jedis = server.jedis()) {
      jedis.pexpire(RedisBreakerStore.stateKey("p-outlive"), 500);
    }

    one.sync("p-outlive", true);

    assertThat(ttl(RedisBreakerStore.stateKey("p-outlive"))).isBetween(1_000L, LOCK_TTL.toMillis());
  }

  @Test
  void runsAgainAfterTheScriptCacheIsFlushed() {
    one.open("p-flush", 1, Duration.ofSeconds(30));
    server.flushScripts();

    assertThat(other.sync("p-flush", false).attempt()).isEqualTo(1);
  }
}
