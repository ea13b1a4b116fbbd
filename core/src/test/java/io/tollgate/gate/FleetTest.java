package io.tollgate.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** The instances that share one Redis, each as its heartbeat describes it. */
class FleetTest {

  @AutoClose static final RedisServer redis = RedisServer.start();

  @Test
  void eachInstanceSeesItselfFirstAndTheOthersAsTheyDescribedThemselves() throws Exception {
    TollgateConfig config = TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml("""
        tollgate:
          redis:
            url: %s
          providers:
            openai:
              base-url: https://api.openai.com
              api: openai
        """.formatted(redis.uri()));
    try (Gate agent = Gate.builder(config).frontEnd("agent").build()) {
      awaitBeat();
      try (Gate filter = Gate.builder(config).frontEnd("filter").build()) {
        List<Fleet.Instance> seen = awaitInstances(filter, 2);

        assertThat(seen).extracting(Fleet.Instance::frontEnd, Fleet.Instance::self)
            .containsExactly(tuple("filter", true),
                tuple("agent", false));
        Fleet.Instance other = seen.get(1);
        assertThat(other.version()).isEqualTo(TollgateVersion.current());
        assertThat(other.degraded()).isFalse();
        assertThat(other.name()).as("one JVM: one host and pid").isEqualTo(seen.get(0).name());
        assertThat(other.started()).isBefore(seen.get(0).started().plusMillis(1));
        assertThat(agent.fleet().instances()).first().extracting(Fleet.Instance::frontEnd)
            .isEqualTo("agent");
      }
    }
  }

  /** The first gate's first beat is in Redis. */
  private static void awaitBeat() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    try (Jedis jedis = redis.jedis()) {
      while (jedis.hlen("tg:{fleet}:info") == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    }
  }

  private static List<Fleet.Instance> awaitInstances(Gate gate, int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    List<Fleet.Instance> seen = gate.fleet().instances();
    while (seen.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(10);
      seen = gate.fleet().instances();
    }
    return seen;
  }
}
