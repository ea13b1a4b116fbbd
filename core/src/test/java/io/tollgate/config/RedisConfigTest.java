package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.FailurePolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The redis section: standalone or cluster, and its failure policy. */
class RedisConfigTest {

  @Test
  void readsAClusterAndEverySetting() {
    RedisConfig redis = Loaders.yaml("""
        tollgate:
          redis:
            cluster: [127.0.0.1:7000, 'redis-1.internal:7001', '[::1]:7002']
            timeout: 250ms
            on-failure: fail-closed
            local-share: 0.25
            pool-size: 8
            reservation-ttl: 2m
        """).redis().orElseThrow();

    assertThat(redis.isCluster()).isTrue();
    assertThat(redis.url()).isEmpty();
    assertThat(redis.cluster()).containsExactly(
        new RedisNode("127.0.0.1", 7000), new RedisNode("redis-1.internal", 7001), new RedisNode("::1", 7002));
    assertThat(redis.cluster().get(2)).hasToString("[::1]:7002");
    assertThat(redis.timeout()).isEqualTo(Duration.ofMillis(250));
    assertThat(redis.onFailure()).isEqualTo(FailurePolicy.FAIL_CLOSED);
    assertThat(redis.localShare()).isEqualTo(0.25);
    assertThat(redis.poolSize()).isEqualTo(8);
    assertThat(redis.reservationTtl()).isEqualTo(Duration.ofMinutes(2));
    assertThat(redis).hasToString("{cluster=[127.0.0.1:7000, redis-1.internal:7001, [::1]:7002],"
        + " timeout=250ms, on-failure=fail-closed, local-share=0.25, pool-size=8, reservation-ttl=2m}");
  }

  @Test
  void anEmptyRedisSectionMeansInMemory() {
    assertThat(Loaders.yaml("tollgate:\n  redis: {}\n").redis()).isEmpty();
  }
}
