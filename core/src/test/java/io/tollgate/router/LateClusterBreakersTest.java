package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.BreakerConfig;
import io.tollgate.config.RedisConfig;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisCluster;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;

/**
 * A Cluster client cannot be made while no seed answers. Breakers made then (an app starting
 * during a Redis outage) ask for the client again at each exchange, and share from the moment a
 * seed answers, instead of staying on their own for the life of the JVM.
 */
class LateClusterBreakersTest {

  @Test
  void breakersMadeWhileTheOnlySeedIsDownShareOnceItIsBack() {
    try (RedisCluster cluster = RedisCluster.start()) {
      HostAndPort seed = cluster.replicas().get(0);
      cluster.node(seed).stop();
      try (RedisConnection late = connection(List.of(seed));
          RedisConnection everySeed = connection(cluster.nodes())) {
        assertThat(late.ping()).isFalse();
        ProviderBreakers lateBreakers =
            ProviderBreakers.create(BreakerConfig.ofDefaults(), Optional.of(late), Clock.systemUTC());
        ProviderBreakers other = ProviderBreakers.create(BreakerConfig.ofDefaults(),
            Optional.of(everySeed), Clock.systemUTC());
        try (lateBreakers; other) {
          ProviderBreaker lateBreaker = lateBreakers.breaker("openai");
          for (int i = 0; i < 3; i++) {
            lateBreaker.onFailure(FailureKind.CONNECTION);
          }
          Poll.until(Duration.ofSeconds(10), "the late breakers finding no Redis",
              () -> !lateBreakers.isShared());
          ProviderBreaker otherBreaker = other.breaker("openai");
          assertThat(otherBreaker.tryAcquirePermission()).isTrue(); // not shared yet

          cluster.restartNode(seed);
          Poll.until(Duration.ofSeconds(15), "the late breakers sharing", lateBreakers::isShared);
          FleetEpisodes.awaitLearned(otherBreaker, lateBreaker);
        }
      }
    }
  }

  private static RedisConnection connection(List<HostAndPort> seeds) {
    return RedisConfig.builder()
        .cluster(seeds.stream().map(HostAndPort::toString).toList())
        .timeout(Duration.ofMillis(200))
        .build()
        .newConnection();
  }
}
