package io.tollgate.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.gate.Fleet;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** Heartbeats on a real Redis: instances see each other, and a silent one drops out. */
class FleetBeaconTest {

  private static RedisServer redis;
  private static RedisConnection connection;

  @BeforeAll
  static void start() {
    redis = RedisServer.start();
    connection = RedisConnection.standalone(redis.uri()).timeout(Duration.ofSeconds(2)).build();
  }

  @AfterAll
  static void stop() {
    connection.close();
    redis.close();
  }

  @BeforeEach
  void flush() {
    redis.flushAll();
  }

  @Test
  void eachInstanceSeesTheOthersAsTheyDescribeThemselves() throws Exception {
    AtomicBoolean degraded = new AtomicBoolean(true);
    FleetBeacon agent = new FleetBeacon(connection, "agent", "1.2.3", degraded::get, Clock.systemUTC());
    FleetBeacon starter = new FleetBeacon(connection, "starter", "1.2.4", () -> false, Clock.systemUTC());

    agent.beat();
    starter.beat();
    agent.beat();

    List<Fleet.Instance> seenByAgent = agent.instances();
    assertThat(seenByAgent).hasSize(2);
    assertThat(seenByAgent.get(0).self()).isTrue();
    assertThat(seenByAgent.get(0).frontEnd()).isEqualTo("agent");
    assertThat(seenByAgent.get(0).degraded()).isTrue();
    Fleet.Instance other = seenByAgent.get(1);
    assertThat(other.self()).isFalse();
    assertThat(other.frontEnd()).isEqualTo("starter");
    assertThat(other.version()).isEqualTo("1.2.4");
    assertThat(other.degraded()).isFalse();
    assertThat(other.name()).isEqualTo(seenByAgent.get(0).name()); // one process here
    assertThat(other.lastSeen()).isBeforeOrEqualTo(java.time.Instant.now());

    degraded.set(false);
    starter.beat();
    Fleet.Instance agentSeenByStarter = starter.instances().get(1);
    assertThat(agentSeenByStarter.frontEnd()).isEqualTo("agent");
    assertThat(agentSeenByStarter.degraded()).isTrue(); // as of its last beat
  }

  @Test
  void anInstanceWhoseBeatExpiredIsForgottenFromBothKeys() throws Exception {
    try (Jedis jedis = redis.jedis()) {
      jedis.zadd("tg:{fleet}:seen", 1, "gone");
      jedis.hset("tg:{fleet}:info", "gone", "{\"name\":\"old\"}");
      FleetBeacon beacon = new FleetBeacon(connection, "agent", "1.2.3", () -> false, Clock.systemUTC());

      beacon.beat();

      assertThat(beacon.instances()).extracting(Fleet.Instance::frontEnd).containsExactly("agent");
      assertThat(jedis.zrange("tg:{fleet}:seen", 0, -1)).hasSize(1).doesNotContain("gone");
      assertThat(jedis.hkeys("tg:{fleet}:info")).hasSize(1).doesNotContain("gone");
      assertThat(jedis.pttl("tg:{fleet}:seen")).isBetween(1L, FleetBeacon.BEAT_TTL.toMillis() * 4);
    }
  }

  @Test
  void withoutRedisTheFleetIsThisInstance() {
    FleetBeacon alone = new FleetBeacon(null, "filter", "1.2.3", () -> false, Clock.systemUTC()).start();

    assertThat(alone.instances()).singleElement().satisfies(self -> {
      assertThat(self.self()).isTrue();
      assertThat(self.frontEnd()).isEqualTo("filter");
      assertThat(self.name()).endsWith(":" + ProcessHandle.current().pid());
    });
    alone.close();
  }
}
