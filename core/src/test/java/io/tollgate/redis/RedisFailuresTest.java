package io.tollgate.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/** The one line that says why the limiter went degraded. */
class RedisFailuresTest {

  @Test
  void aRefusedLoginIsNamedEvenWhenTheClusterClientSuppressedIt() {
    JedisClusterOperationException failure =
        new JedisClusterOperationException("Could not initialize cluster slots cache.");
    failure.addSuppressed(new JedisAccessControlException(
        "WRONGPASS invalid username-password pair or user is disabled."));

    assertThat(RedisFailures.describe(failure)).isEqualTo("Redis refused the login (WRONGPASS invalid"
        + " username-password pair or user is disabled.); check the user and password in tollgate.redis");
  }

  @Test
  void aMissingPasswordIsARefusedLoginToo() {
    assertThat(RedisFailures.describe(new JedisDataException("NOAUTH Authentication required.")))
        .isEqualTo("Redis refused the login (NOAUTH Authentication required.);"
            + " check the user and password in tollgate.redis");
  }

  @Test
  void anyOtherFailureShowsItselfAndItsRootCause() {
    JedisConnectionException failure = new JedisConnectionException(
        "Failed to connect to 127.0.0.1:7000.", new ConnectException("Connection refused"));

    assertThat(RedisFailures.describe(failure)).isEqualTo("JedisConnectionException: Failed to"
        + " connect to 127.0.0.1:7000. (ConnectException: Connection refused)");
  }

  @Test
  void aClusterClientThatReachedNoSeedShowsTheFirstReason() {
    JedisClusterOperationException failure =
        new JedisClusterOperationException("Could not initialize cluster slots cache.");
    failure.addSuppressed(new JedisConnectionException("Failed to connect to 127.0.0.1:7000."));

    assertThat(RedisFailures.describe(failure)).isEqualTo("JedisClusterOperationException: Could not"
        + " initialize cluster slots cache. (JedisConnectionException: Failed to connect to 127.0.0.1:7000.)");
  }

  @Test
  void noFailureAtAllIsNoReply() {
    assertThat(RedisFailures.describe(null)).isEqualTo("no reply");
  }
}
