package io.tollgate.redis;

import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.net.ssl.SSLParameters;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Pooled Redis clients configured the way the limiter needs them: a short timeout on every call
 * (the limiter's budget, 100 ms by default) so that a slow Redis turns into a degraded decision
 * rather than a slow app.
 *
 * <p>Only API that Jedis 6, 7 and 8 all have is used here and in the rest of the core (Jedis 8's
 * {@code RedisClient} and {@code RedisClusterClient} builders are not), because an app's own
 * dependency management, Spring Boot's in particular, picks the Jedis line (docs/limiter.md).
 */
final class RedisClients {

  /** Cluster redirections (MOVED, ASK, TRYAGAIN) followed before giving up on one call. */
  static final int CLUSTER_MAX_ATTEMPTS = 5;

  private RedisClients() {}

  /**
   * {@code redis://[user:password@]host:port[/db]}, or {@code rediss://} for TLS, checking that
   * the certificate names the url's host.
   */
  static UnifiedJedis standalone(URI url, Duration timeout, int poolSize) {
    return standalone(url, timeout, poolSize, true);
  }

  /**
   * As {@link #standalone(URI, Duration, int)}; over TLS the certificate must name the url's host
   * when {@code verifyHost}, and may name any host otherwise (for testing only).
   */
  static UnifiedJedis standalone(URI url, Duration timeout, int poolSize, boolean verifyHost) {
    if (!JedisURIHelper.isValid(url)) {
      throw new IllegalArgumentException("redis url must be redis://host:port or rediss://host:port,"
          + " was " + redacted(url));
    }
    JedisClientConfig config = config(timeout)
        .user(JedisURIHelper.getUser(url))
        .password(JedisURIHelper.getPassword(url))
        .database(JedisURIHelper.getDBIndex(url))
        .ssl(JedisURIHelper.isRedisSSLScheme(url))
        .sslParameters(tlsParameters(verifyHost))
        .build();
    return new PooledRedis(new HostAndPort(url.getHost(), url.getPort()), config, pool(poolSize, timeout));
  }

  /**
   * A Redis Cluster reached through any of {@code seeds}; the client learns the rest. It signs in
   * to every node as {@code user} (null: {@code default}) with {@code password} (null: none), over
   * TLS when {@code ssl}, trusting what the JVM's trust store trusts and checking that each node's
   * certificate names the host it is reached at.
   */
  static UnifiedJedis cluster(Collection<HostAndPort> seeds, Duration timeout, int poolSize,
      String user, String password, boolean ssl) {
    return cluster(seeds, timeout, poolSize, user, password, ssl, true);
  }

  /**
   * As {@link #cluster(Collection, Duration, int, String, String, boolean)}; over TLS a node's
   * certificate must name its host when {@code verifyHost}, and may name any host otherwise (for
   * testing only).
   */
  static UnifiedJedis cluster(Collection<HostAndPort> seeds, Duration timeout, int poolSize,
      String user, String password, boolean ssl, boolean verifyHost) {
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("redis cluster needs at least one node");
    }
    Set<HostAndPort> nodes = new LinkedHashSet<>(seeds);
    return new JedisCluster(nodes, config(timeout).user(user).password(password).ssl(ssl)
            .sslParameters(tlsParameters(verifyHost)).build(),
        CLUSTER_MAX_ATTEMPTS, timeout.multipliedBy(CLUSTER_MAX_ATTEMPTS), pool(poolSize, timeout));
  }

  private static DefaultJedisClientConfig.Builder config(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("redis timeout must be > 0, was " + timeout);
    }
    int millis = (int) Math.max(1, timeout.toMillis());
    return DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(millis)
        .socketTimeoutMillis(millis)
        .clientName("tollgate");
  }

  /**
   * Said either way rather than left to Jedis: Jedis 8 checks the host name when given no
   * parameters, Jedis 6 and 7 (the lines Spring Boot picks) do not. Only the endpoint check is set;
   * protocols and cipher suites stay the JVM's.
   */
  private static SSLParameters tlsParameters(boolean verifyHost) {
    SSLParameters parameters = new SSLParameters();
    parameters.setEndpointIdentificationAlgorithm(verifyHost ? "HTTPS" : null);
    return parameters;
  }

  /** A call waits for a free connection no longer than for Redis itself. */
  private static GenericObjectPoolConfig<Connection> pool(int size, Duration timeout) {
    if (size <= 0) {
      throw new IllegalArgumentException("redis pool size must be > 0, was " + size);
    }
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(size);
    pool.setMaxIdle(size);
    pool.setMinIdle(0);
    pool.setBlockWhenExhausted(true);
    pool.setMaxWait(timeout);
    // No MBean per pool: registering one creates the JVM's platform MBeanServer (about 170 classes
    // at start-up), which in the agent would happen on its own, before the app (an application
    // server installs its own MBeanServerBuilder first) has had its say.
    pool.setJmxEnabled(false);
    return pool;
  }

  /** The url without its password, for error messages: all from {@code //} to the last {@code @}. */
  static String redacted(URI url) {
    if (url == null) {
      return "null";
    }
    String text = url.toString();
    int start = text.indexOf("//");
    int at = text.lastIndexOf('@');
    return start < 0 || at < start ? text : text.substring(0, start + 2) + "***" + text.substring(at);
  }
}
