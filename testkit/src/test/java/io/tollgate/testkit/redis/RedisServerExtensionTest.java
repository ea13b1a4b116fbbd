package io.tollgate.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class RedisServerExtensionTest {

  @RegisterExtension static final RedisServerExtension redis = RedisServerExtension.standalone();

  private static final AtomicLong firstPid = new AtomicLong();

  @Test
  void startsOneServerForTheWholeClass() {
    long pid = redis.server().pid();
    firstPid.compareAndSet(0, pid);

    assertThat(redis.server().isRunning()).isTrue();
    assertThat(pid).isEqualTo(firstPid.get());
  }

  @Test
  void servesEveryTestOfTheClass() {
    long pid = redis.server().pid();
    firstPid.compareAndSet(0, pid);

    try (Jedis jedis = redis.jedis()) {
      assertThat(jedis.ping()).isEqualTo("PONG");
    }
    assertThat(pid).isEqualTo(firstPid.get());
  }

  @Nested
  class NestedTests {
    @Test
    void shareTheOuterClassServer() {
      long pid = redis.server().pid();
      firstPid.compareAndSet(0, pid);

      assertThat(pid).isEqualTo(firstPid.get());
      assertThat(redis.port()).isEqualTo(redis.server().port());
    }
  }
}
