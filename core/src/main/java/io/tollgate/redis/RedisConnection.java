package io.tollgate.redis;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;

/**
 * The one Redis client of a Tollgate instance, standalone ({@link #standalone(URI)}) or Cluster
 * ({@link #cluster(Collection)}), made when first needed and made again on the next use while
 * making it fails (a Cluster client cannot be built while no node answers; the app starts all the
 * same and the limiter degrades by its policy). Give it to {@code RateLimiter.redis} and to the
 * breakers; close it after them.
 *
 * <p>The client is made on a thread of its own, one attempt at a time. A Cluster client is made by
 * reaching its seeds, one after the other, each up to the timeout: no caller waits for that longer
 * than the timeout, since calls queued behind it would each pay the whole of it; one that gives up
 * gets a failure that {@link RedisFailures#isRedisFailure} recognises, which the limiter's failure
 * policy decides. A standalone client is made without touching the network (its pool connects on
 * use), so a caller waits for it whatever it takes.
 */
public final class RedisConnection implements RedisScripts, AutoCloseable {

  /** A constant, so that the configuration names the default without loading the client library. */
  public static final long DEFAULT_TIMEOUT_MILLIS = 100;
  /** The bound of every Redis call: a slow Redis turns into a degraded decision, not a slow app. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(DEFAULT_TIMEOUT_MILLIS);
  public static final int DEFAULT_POOL_SIZE = 32;

  private final Settings settings;
  private final AtomicReference<CompletableFuture<UnifiedJedis>> attempt = new AtomicReference<>();
  private volatile UnifiedJedis client;
  /** The steps many threads ask of a standalone Redis, sent together; null on a Cluster. */
  private volatile SharedSteps shared;
  private volatile boolean closed;

  private RedisConnection(Settings settings) {
    this.settings = settings;
  }

  /**
   * A standalone Redis: {@code redis://[user:password@]host:port[/db]}, or {@code rediss://} for
   * TLS. The url is checked when the client is made.
   */
  public static Builder standalone(URI url) {
    return new Builder(Objects.requireNonNull(url, "url"), List.of());
  }

  /**
   * A Redis Cluster reached through any of {@code seeds} (host and port each); the client learns
   * the rest.
   */
  public static Builder cluster(Collection<InetSocketAddress> seeds) {
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("redis cluster needs at least one node");
    }
    return new Builder(null, List.copyOf(seeds));
  }

  /** A standalone Redis at {@code url} with the default timeout and pool. */
  public static RedisConnection of(URI url) {
    return standalone(url).build();
  }

  /** True for a Redis Cluster. */
  public boolean isCluster() {
    return settings.url == null;
  }

  /**
   * The client; when it is not made yet, waits for the attempt under way (starting one when none
   * is), for a Cluster at most the timeout. A Redis failure when Redis cannot be reached in that
   * time.
   */
  UnifiedJedis client() {
    UnifiedJedis made = client;
    if (made != null) {
      return made;
    }
    checkOpen();
    try {
      CompletableFuture<UnifiedJedis> attempt = currentAttempt();
      return isCluster()
          ? attempt.get(settings.timeout.toNanos(), TimeUnit.NANOSECONDS) : attempt.get();
    } catch (TimeoutException e) {
      throw RedisFailures.unreachable("still connecting to Redis after "
          + settings.timeout.toMillis() + " ms (redis.timeout)", null);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException failure
          ? failure : RedisFailures.unreachable("could not connect to Redis", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw RedisFailures.unreachable("interrupted while connecting to Redis", e);
    }
  }

  /**
   * Starts making the client and returns at once, so that loading the client library and the
   * first connection overlap the rest of the start (docs/agent.md). When Redis cannot be reached
   * yet, the next call tries again.
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

  /** True when Redis answers PING now (within the timeout); false when it cannot be reached. */
  public boolean ping() {
    try {
      return "PONG".equalsIgnoreCase(client().ping());
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * A step of a script made of steps goes, on a standalone Redis, with the steps other threads ask
   * at the time ({@link SharedSteps}).
   */
  @Override
  public Object eval(LuaScript script, List<byte[]> keys, List<byte[]> args) {
    UnifiedJedis redis = client();
    SharedSteps together = shared;
    return together != null && script.steps()
        ? together.eval(script, new Call(keys, args))
        : ScriptRuns.eval(redis, script, keys, args);
  }

  @Override
  public boolean pipelines() {
    return client instanceof PooledRedis; // as it is: connecting is the first run's business
  }

  /** The steps of a script made of steps go, on a standalone Redis, with other threads' steps. */
  @Override
  public List<Object> evalAll(LuaScript script, List<Call> calls) {
    UnifiedJedis redis = client();
    SharedSteps together = shared;
    return together != null && script.steps()
        ? together.evalAll(script, calls)
        : ScriptRuns.evalAll(redis, script, calls);
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
        shared = made instanceof PooledRedis ? new SharedSteps(made) : null;
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
    if (isCluster()) {
      List<HostAndPort> seeds = new ArrayList<>(settings.seeds.size());
      for (InetSocketAddress seed : settings.seeds) {
        seeds.add(new HostAndPort(seed.getHostString(), seed.getPort()));
      }
      return RedisClients.cluster(seeds, settings.timeout, settings.poolSize, settings.user,
          settings.password, settings.tls, settings.verifyHost);
    }
    return RedisClients.standalone(settings.url, settings.timeout, settings.poolSize,
        settings.verifyHost);
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (client != null) {
      client.close();
      client = null;
      shared = null;
    }
  }

  private record Settings(URI url, List<InetSocketAddress> seeds, Duration timeout, int poolSize,
      String user, String password, boolean tls, boolean verifyHost) {}

  /** Configures a {@link RedisConnection}; every setter rejects a bad value at once. */
  public static final class Builder {
    private final URI url;
    private final List<InetSocketAddress> seeds;
    private Duration timeout = DEFAULT_TIMEOUT;
    private int poolSize = DEFAULT_POOL_SIZE;
    private String user;
    private String password;
    private boolean tls;
    private boolean verifyHost = true;

    private Builder(URI url, List<InetSocketAddress> seeds) {
      this.url = url;
      this.seeds = seeds;
    }

    /** The bound of every call, of a connection and of a wait for a pooled one; 100 ms by default. */
    public Builder timeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("redis timeout must be > 0, was " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** Connections per node; 32 by default. */
    public Builder poolSize(int poolSize) {
      if (poolSize <= 0) {
        throw new IllegalArgumentException("redis pool size must be > 0, was " + poolSize);
      }
      this.poolSize = poolSize;
      return this;
    }

    /**
     * The ACL user and password every Cluster node is signed in to (null: {@code default}, none);
     * a standalone Redis takes them from its url.
     */
    public Builder login(String user, String password) {
      requireCluster("login");
      this.user = user;
      this.password = password;
      return this;
    }

    /**
     * TLS to every Cluster node, trusting what the JVM's trust store trusts; a standalone Redis
     * speaks TLS for a {@code rediss://} url.
     */
    public Builder tls(boolean tls) {
      requireCluster("tls");
      this.tls = tls;
      return this;
    }

    /**
     * Over TLS, whether a certificate must name the host it is reached at (the default); false
     * accepts any host, for testing only.
     */
    public Builder verifyHost(boolean verifyHost) {
      this.verifyHost = verifyHost;
      return this;
    }

    public RedisConnection build() {
      return new RedisConnection(new Settings(url, seeds, timeout, poolSize, user, password, tls,
          verifyHost));
    }

    private void requireCluster(String setting) {
      if (url != null) {
        throw new IllegalArgumentException("redis " + setting
            + " of a standalone Redis is given by its url (rediss://user:password@host:port)");
      }
    }
  }
}
