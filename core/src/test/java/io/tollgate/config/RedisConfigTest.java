package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.FailurePolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
  void aPlainClusterSignsInWithNothing() {
    RedisConfig redis = Loaders.yaml("tollgate:\n  redis:\n    cluster: [a:7000, 'redis://b:7001']\n")
        .redis().orElseThrow();

    assertThat(redis.cluster()).containsExactly(new RedisNode("a", 7000), new RedisNode("b", 7001));
    assertThat(redis.tls()).isFalse();
    assertThat(redis.user()).isEmpty();
    assertThat(redis.password()).isEmpty();
  }

  @Test
  void clusterEntriesWrittenAsUrlsCarryTlsUserAndPassword() {
    RedisConfig redis = Loaders.yaml("""
        tollgate:
          redis:
            cluster:
              - rediss://tollgate:${REDIS_PASSWORD}@redis-1.internal:7000
              - rediss://tollgate:${REDIS_PASSWORD}@redis-2.internal:7001/
              - rediss://tollgate:${REDIS_PASSWORD}@[::1]:7002
        """, Map.of("REDIS_PASSWORD", "Zq8-w0rd_X")).redis().orElseThrow();

    assertThat(redis.cluster()).containsExactly(new RedisNode("redis-1.internal", 7000),
        new RedisNode("redis-2.internal", 7001), new RedisNode("::1", 7002));
    assertThat(redis.tls()).isTrue();
    assertThat(redis.user()).contains("tollgate");
    assertThat(redis.password().orElseThrow().reveal()).isEqualTo("Zq8-w0rd_X");
    assertThat(redis).hasToString("{cluster=[rediss://***@redis-1.internal:7000,"
        + " rediss://***@redis-2.internal:7001, rediss://***@[::1]:7002], timeout=100ms,"
        + " on-failure=fail-open, local-share=1.0, pool-size=32, reservation-ttl=10m}");
  }

  @Test
  void aPercentEscapedPasswordIsDecodedAsJedisDecodesIt() {
    RedisConfig redis = Loaders.yaml(
        "tollgate:\n  redis:\n    cluster: ['redis://:a%2Fb%40c@a:7000', 'redis://:a%2Fb%40c@b:7001']\n")
        .redis().orElseThrow();

    assertThat(redis.tls()).isFalse();
    assertThat(redis.user()).isEmpty();
    assertThat(redis.password().orElseThrow().reveal()).isEqualTo("a/b@c");
  }

  @Test
  void aStandaloneUrlGivesItsLoginToo() {
    RedisConfig redis = RedisConfig.builder().url("rediss://app:hunter2@cache:6380/1").build();

    assertThat(redis.tls()).isTrue();
    assertThat(redis.user()).contains("app");
    assertThat(redis.password().orElseThrow().reveal()).isEqualTo("hunter2");
  }

  @Test
  void configsDifferingOnlyInTheClusterPasswordAreNotEqual() {
    RedisConfig one = RedisConfig.builder().cluster(List.of("redis://:one@a:7000")).build();
    RedisConfig same = RedisConfig.builder().cluster(List.of("redis://:one@a:7000")).build();
    RedisConfig two = RedisConfig.builder().cluster(List.of("redis://:two@a:7000")).build();

    assertThat(one).isEqualTo(same).hasSameHashCodeAs(same).isNotEqualTo(two);
    assertThat(one).hasToString(two.toString());
  }

  @Test
  void anEmptyRedisSectionMeansInMemory() {
    assertThat(Loaders.yaml("tollgate:\n  redis: {}\n").redis()).isEmpty();
  }
}
