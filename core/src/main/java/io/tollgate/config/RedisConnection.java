package io.tollgate.config;

import io.tollgate.limiter.RedisClients;
import java.util.Optional;
import java.util.stream.Collectors;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The one Redis client of a Tollgate instance, made from {@code tollgate.redis} when first needed
 * and made again on the next use while making it fails (a Cluster client cannot be built while no
 * node answers; the app starts all the same and the limiter degrades by its policy).
 */
public final class RedisConnection implements AutoCloseable {

  private final RedisConfig config;
  private UnifiedJedis client;
  private boolean closed;

  private RedisConnection(RedisConfig config) {
    this.config = config;
  }

  public static RedisConnection of(RedisConfig config) {
    return new RedisConnection(config);
  }

  /** The client, made now if needed; a {@link JedisException} when Redis cannot be reached. */
  public synchronized UnifiedJedis client() {
    if (closed) {
      throw new IllegalStateException("the Redis connection is closed");
    }
    if (client == null) {
      client = create();
    }
    return client;
  }

  /**
   * Starts making the client on a thread of its own and returns at once, so that loading Jedis
   * and the first connection (about a third of the start-up on Redis, docs/agent.md) overlap the
   * rest of the start; {@link #client()} waits for it. When Redis cannot be reached yet, the next
   * {@link #client()} tries again, as without this.
   */
  public void connectInBackground() {
    Thread connect = new Thread(this::connectQuietly, "tollgate-redis-connect");
    connect.setDaemon(true);
    connect.start();
  }

  private void connectQuietly() {
    try {
      client();
    } catch (RuntimeException unreachableOrClosed) {
      // the next client() meets it again, on a thread whose caller handles it
    }
  }

  /** The client if it can be made now, else empty: for parts that work without Redis. */
  public Optional<UnifiedJedis> clientIfReachable() {
    try {
      return Optional.of(client());
    } catch (JedisException e) {
      return Optional.empty();
    }
  }

  private UnifiedJedis create() {
    if (config.isCluster()) {
      return RedisClients.cluster(
          config.cluster().stream()
              .map(node -> new HostAndPort(node.host(), node.port()))
              .collect(Collectors.toList()),
          config.timeout(), config.poolSize(), config.user().orElse(null),
          config.password().map(Secret::reveal).orElse(null), config.tls(), config.verifyHost());
    }
    return RedisClients.standalone(config.url().orElseThrow(), config.timeout(), config.poolSize(),
        config.verifyHost());
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
