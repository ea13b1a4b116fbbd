package io.tollgate.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.redis.RedisServer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

class RedisClientsTest {

  /**
   * The agent must not create the JVM's platform MBeanServer behind the app's back; commons-pool
   * registers an MBean per pool unless told not to.
   */
  @Test
  void registersNoMBeanForItsPool() throws Exception {
    try (RedisServer server = RedisServer.start();
        UnifiedJedis client = RedisClients.standalone(server.uri(), Duration.ofSeconds(2), 4)) {
      assertThat(client.ping()).isEqualTo("PONG");

      assertThat(ManagementFactory.getPlatformMBeanServer()
          .queryNames(new ObjectName("org.apache.commons.pool2:*"), null)).isEmpty();
    }
  }
}
