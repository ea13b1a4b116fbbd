package io.tollgate.redis;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.PooledConnectionProvider;

/**
 * A standalone Redis client over a connection pool, each command sent once. Jedis names this
 * client differently in each line ({@code JedisPooled} up to 7, {@code RedisClient} from 8, which
 * dropped {@code JedisPooled}); both are this constructor of {@link UnifiedJedis}, which Jedis 6,
 * 7 and 8 share, so Tollgate runs on whichever line the app's dependency management picks (Spring
 * Boot pins 6.0 in Boot 3.5 and 7.0 in Boot 4.0).
 */
final class PooledRedis extends UnifiedJedis {

  PooledRedis(HostAndPort node, JedisClientConfig config, GenericObjectPoolConfig<Connection> pool) {
    super(new PooledConnectionProvider(node, config, pool), config.getRedisProtocol());
  }

  /**
   * A pipeline on one pooled connection, given back when the pipeline closes. Not {@code
   * pipelined()}: its return type differs between Jedis 6 and 7, this constructor does not.
   */
  Pipeline pipeline() {
    return new Pipeline(provider.getConnection(), true);
  }
}
