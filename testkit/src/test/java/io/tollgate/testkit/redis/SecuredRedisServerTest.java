package io.tollgate.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.testkit.tls.TestCertificate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/** A server that requires a password, and one that speaks only TLS: the fixture signs in by itself. */
class SecuredRedisServerTest {

  private static final TestCertificate certificate = TestCertificate.generate();

  @AfterAll
  static void deleteCertificate() {
    certificate.close();
  }

  @Test
  void aPasswordServerRefusesClientsWithoutItAndTheFixtureSignsIn() {
    try (RedisServer redis = RedisServer.builder().password("s3cret-pass").start()) {
      assertThatThrownBy(() -> ping(redis, DefaultJedisClientConfig.builder().build()))
          .isInstanceOf(JedisDataException.class)
          .hasMessageStartingWith("NOAUTH");
      assertThatThrownBy(() -> ping(redis, DefaultJedisClientConfig.builder().password("guess").build()))
          .isInstanceOf(JedisAccessControlException.class)
          .hasMessageStartingWith("WRONGPASS");
      try (Jedis jedis = redis.jedis()) {
        assertThat(jedis.set("k", "v")).isEqualTo("OK");
      }
      assertThat(redis.password()).contains("s3cret-pass");
      assertThat(redis.uri()).hasToString("redis://:s3cret-pass@127.0.0.1:" + redis.port());

      redis.restart(); // the probes and SHUTDOWN sign in too
      try (Jedis jedis = redis.jedis()) {
        assertThat(jedis.dbSize()).isZero();
      }
    }
  }

  @Test
  void aTlsServerHasNoPlainPortAndTheFixtureTrustsItsCertificate() {
    try (RedisServer redis = RedisServer.builder().tls(certificate).start()) {
      assertThatThrownBy(() -> ping(redis, DefaultJedisClientConfig.builder()
              .socketTimeoutMillis(1_000).build()))
          .isInstanceOf(JedisConnectionException.class);
      assertThatThrownBy(() -> ping(redis, DefaultJedisClientConfig.builder().ssl(true).build()))
          .as("the JVM's own trust store does not know the test certificate")
          .isInstanceOf(JedisConnectionException.class)
          .hasStackTraceContaining("PKIX path building failed");
      try (Jedis jedis = redis.jedis()) {
        assertThat(jedis.ping()).isEqualTo("PONG");
      }
      assertThat(redis.tls()).containsSame(certificate);
      assertThat(redis.uri()).hasToString("rediss://127.0.0.1:" + redis.port());
    }
  }

  @Test
  void passwordAndTlsTogether() {
    try (RedisServer redis = RedisServer.builder().tls(certificate).password("pw").start()) {
      try (Jedis jedis = redis.jedis()) {
        assertThat(jedis.ping()).isEqualTo("PONG");
      }
      assertThat(redis.uri()).hasToString("rediss://:pw@127.0.0.1:" + redis.port());
    }
  }

  private static String ping(RedisServer redis, JedisClientConfig config) {
    try (Jedis jedis = new Jedis(redis.hostAndPort(), config)) { // connects and signs in here
      return jedis.ping();
    }
  }

  @Test
  void rejectsDirectivesThatWouldLockTheFixtureOut() {
    assertThatThrownBy(() -> RedisServer.builder().config("requirepass", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 'requirepass'");
    assertThatThrownBy(() -> RedisServer.builder().config("--tls-port", "6380"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was '--tls-port'");
    assertThatThrownBy(() -> RedisServer.builder().password(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("password must not be empty");
  }
}
