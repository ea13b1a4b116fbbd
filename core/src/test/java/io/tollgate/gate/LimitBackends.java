package io.tollgate.gate;

import io.tollgate.testkit.redis.RedisCluster;
import io.tollgate.testkit.redis.RedisServer;
import java.util.stream.Collectors;

/**
 * The three backends the gate's limit tests run on (in memory, a standalone Redis, a Redis
 * Cluster), the Redis ones started once for every test class that asks and stopped when the test
 * JVM exits: a Cluster takes seconds to form.
 */
final class LimitBackends {

  /** The backends by the name a parameterized test gives. */
  static final String MEMORY = "memory";
  static final String REDIS = "redis";
  static final String CLUSTER = "cluster";

  private static RedisServer redis;
  private static RedisCluster cluster;

  private LimitBackends() {}

  /** The {@code redis:} section of {@code backend} (none in memory), indented under {@code tollgate:}. */
  static synchronized String yaml(String backend) {
    return switch (backend) {
      case MEMORY -> "";
      case REDIS -> "  redis: { url: " + redis().uri() + " }\n";
      case CLUSTER -> "  redis:\n    cluster: " + cluster().seeds().stream().map(Object::toString)
          .collect(Collectors.joining(", ", "[", "]")) + "\n    timeout: 5s\n";
      default -> throw new IllegalArgumentException("no backend " + backend);
    };
  }

  /** Forgets every charge of the backends started so far. */
  static synchronized void flush() {
    if (redis != null) {
      redis.flushAll();
    }
    if (cluster != null) {
      cluster.masters().forEach(master -> cluster.node(master).flushAll());
    }
  }

  private static RedisServer redis() {
    if (redis == null) {
      redis = RedisServer.start();
      Runtime.getRuntime().addShutdownHook(new Thread(redis::close));
    }
    return redis;
  }

  private static RedisCluster cluster() {
    if (cluster == null) {
      cluster = RedisCluster.start();
      Runtime.getRuntime().addShutdownHook(new Thread(cluster::close));
    }
    return cluster;
  }
}
