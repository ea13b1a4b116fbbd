package io.tollgate.samples.api;

import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisCluster;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The fixtures a test of Tollgate, or of an app using it, starts: real Redis (standalone and
 * Cluster) and a mock provider. Shaped as a test class; compiled, never run here.
 */
class TestkitExample {

  @AutoClose static final RedisServer redis = RedisServer.start();      // a throw-away redis-server
  @AutoClose static final RedisCluster cluster = RedisCluster.start();  // 3 masters + 3 replicas

  @AutoClose static final MockLlmServer primary = MockLlmServer.start();

  @Test void scripted() throws InterruptedException {
    primary.script().next(3, Fault.rateLimited(Duration.ofSeconds(2)));   // then normal answers
    // ... the code under test calls primary.baseUrl() ...
    String key = primary.takeRequest(Duration.ofSeconds(5)).header("authorization");   // what arrived
  }
}
