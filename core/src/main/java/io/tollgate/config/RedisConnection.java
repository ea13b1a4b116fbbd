package io.tollgate.config;

import io.tollgate.limiter.RedisClients;
import io.tollgate.limiter.internal.RedisFailures;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The one Redis client of a Tollgate instance, made from {@code tollgate.redis} when first needed
 * and made again on the next use while making it fails (a Cluster client cannot be built while no
 * node answers; the app starts all the same and the limiter degrades by its policy).
 *
 * <p>The client is made on a thread of its own, one attempt at a time. A Cluster client is made by
 * reaching its seeds, one after the other, each up to {@code redis.timeout}: no caller waits for
 * that longer than the timeout, since calls queued behind it would each pay the whole of it; one
 * that gives up gets a {@code JedisConnectionException}, which the limiter's failure policy
 * decides. A standalone client is made without touching the network (its pool connects on use),
 * so a caller waits for it whatever it takes.
 */
public final class RedisConnection implements AutoCloseable {

  private final RedisConfig config;
  private final AtomicReference<CompletableFuture<UnifiedJedis>> attempt = new AtomicReference<>();
  private volatile UnifiedJedis client;
  private volatile boolean closed;

  private RedisConnection(RedisConfig config) {
    this.config = config;
  }

  public static RedisConnection of(RedisConfig config) {
    return new RedisConnection(config);
  }

  /**
   * The client; when it is not made yet, waits for the attempt under way (starting one when none
   * is), for a Cluster at most {@code redis.timeout}. A {@link JedisException} when Redis cannot
   * be reached in that time.
   */
  public UnifiedJedis client() {
    UnifiedJedis made = client;
    if (made != null) {
      return made;
    }
    checkOpen();
    try {
      CompletableFuture<UnifiedJedis> attempt = currentAttempt();
      return config.isCluster() ? attempt.get(config.timeout().toNanos(), TimeUnit.NANOSECONDS) : attempt.get();
    } catch (TimeoutException e) {
      throw RedisFailures.unreachable("still connecting to Redis after " + config.timeout().toMillis()
          + " ms (redis.timeout)", null);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException failure
          ? failure : RedisFailures.unreachable("could not connect to Redis", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw RedisFailures.unreachable("interrupted while connecting to Redis", e);
    }
  }

  /**
   * Starts making the client and returns at once, so that loading Jedis and the first connection
   * overlap the rest of the start (docs/agent.md). When Redis cannot be reached yet, the next
   * {@link #client()} tries again.
   */
  public void connectInBackground() {
    if (client == null && !closed) {
      currentAttempt();
    }
  }

  /**
   * Starts making the client if it is not made and waits up to {@code wait} for that attempt to
   * end: for a start-up that would rather connect before it serves than decide its first calls by
   * the failure policy.
   *
   * @return true when the client is made; false when the attempt failed, is still under way after
   *     {@code wait}, or the connection is closed
   */
  public boolean awaitConnected(Duration wait) {
    if (client != null) {
      return true;
    }
    if (closed) {
      return false;
    }
    try {
      currentAttempt().get(wait.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException | ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The client if it can be made now, else empty: for parts that work without Redis. */
  public Optional<UnifiedJedis> clientIfReachable() {
    try {
      return Optional.of(client());
    } catch (JedisException | IllegalStateException e) {
      return Optional.empty();
    }
  }

  /** The attempt under way, or a new one when there is none or the last one failed. */
  private CompletableFuture<UnifiedJedis> currentAttempt() {
    while (true) {
      CompletableFuture<UnifiedJedis> current = attempt.get();
      if (current != null && !current.isCompletedExceptionally()) {
        return current;
      }
      CompletableFuture<UnifiedJedis> next = new CompletableFuture<>();
      if (attempt.compareAndSet(current, next)) {
        start(next);
        return next;
      }
    }
  }

  private void start(CompletableFuture<UnifiedJedis> attempt) {
    Thread connect = new Thread(() -> connect(attempt), "tollgate-redis-connect");
    connect.setDaemon(true);
    // Jedis loads classes (and the agent's relocated copy lives in its own loader) on this thread
    connect.setContextClassLoader(RedisConnection.class.getClassLoader());
    connect.start();
  }

  private void connect(CompletableFuture<UnifiedJedis> attempt) {
    try {
      if (closed) {
        attempt.completeExceptionally(new IllegalStateException("the Redis connection is closed"));
        return;
      }
      UnifiedJedis made = create();
      synchronized (this) {
        if (closed) {
          made.close();
          attempt.completeExceptionally(new IllegalStateException("the Redis connection is closed"));
          return;
        }
        client = made;
      }
      attempt.complete(made);
    } catch (RuntimeException | Error e) {
      attempt.completeExceptionally(e);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the Redis connection is closed");
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
