package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.agent.it.ForkedApp.AppCall;
import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * The agent on a Redis Cluster (the testkit's 3 masters and 3 replicas): the cluster client it
 * bundles, relocated, routes every script to the slot of its subject, and the settles reach it
 * from the agent's settle thread, one by one.
 */
class RedisClusterAgentIT {

  @AutoClose static final RedisCluster cluster = RedisCluster.start();
  @AutoClose static final MockLlmServer primary = MockLlmServer.start().usage(10, 20);

  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the cluster\"}]}";
  private static final long TOKENS_PER_DAY = 100_000;

  @TempDir Path dir;

  @Test
  void enforcesOneLimitAcrossTwoJvmsAndSettlesTheRealUsageOnTheSubjectsSlot() throws Exception {
    String seeds = cluster.seeds().stream().map(HostAndPort::toString)
        .collect(Collectors.joining(", ", "[", "]"));
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          redis:
            cluster: %s
            timeout: 5s # a cold forked JVM's first calls (and its Cluster connect) may be slow; a timeout would fail open
          providers:
            primary:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 5
                tokens-per-day: %d
        """.formatted(seeds, primary.baseUrl(), TOKENS_PER_DAY));
    String url = primary.baseUrl() + "/v1/chat/completions";
    ForkedApp executing = ForkedApp.okhttp("4", dir.resolve("sync"))
        .withAgent("config=" + config).calls(4, "sync", url, CHAT);
    ForkedApp enqueuing = ForkedApp.okhttp("4", dir.resolve("async"))
        .withAgent("config=" + config).calls(4, "async", url, CHAT);
    List<Run> runs = ForkedApp.runTogether(executing, enqueuing);
    assertThat(runs).allSatisfy(run ->
        assertThat(run.stderr()).as("only the start-up line").hasSize(1));
    List<AppCall> calls = ForkedApp.callsOf(runs);
    assertThat(calls).extracting(AppCall::status).filteredOn(status -> status == 200).hasSize(5);
    assertThat(calls).extracting(AppCall::status).filteredOn(status -> status == 429).hasSize(3);
    assertThat(primary.requestCount()).isEqualTo(5);

    // The account lives on the master that owns its hash tag's slot, nowhere else.
    Subject subject = Subject.of("provider", "primary");
    String stateKey = RedisKeys.stateKey(subject);
    HostAndPort owner = cluster.masterForKey(stateKey);
    for (HostAndPort master : cluster.masters()) {
      try (Jedis node = cluster.node(master).jedis()) {
        // KEYS lists a node's own keys (EXISTS of another slot's key answers MOVED)
        assertThat(node.keys("*").contains(stateKey)).as("on %s (owner %s)", master, owner)
            .isEqualTo(master.equals(owner));
      }
    }
    // Read back through a cluster client: no request left, and the 5 calls' real usage (30 tokens
    // each, as the mock reported) charged instead of their estimates (300+ each).
    Limits limits = TollgateConfigLoader.builder().build().load(config)
        .provider("primary").orElseThrow().limits().toLimits();
    try (RedisConnection client = RedisConnection.cluster(cluster.seedAddresses())
        .timeout(Duration.ofSeconds(2)).build()) {
      Decision account = RateLimiter.redis(client).reserve(subject, limits, 0, 1);
      assertThat(account.remainingRequests()).isZero();
      long tokensCharged = TOKENS_PER_DAY - account.remainingTokens() - 1;
      // a day's bucket refills about 1.2 tokens a second while the apps run
      assertThat(tokensCharged).as("tokens charged").isBetween(5L * 30 - 20, 5L * 30);
    }
  }
}
