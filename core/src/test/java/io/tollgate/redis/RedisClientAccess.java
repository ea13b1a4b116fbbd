package io.tollgate.redis;

import redis.clients.jedis.UnifiedJedis;

/** The client inside a {@link RedisConnection}, for tests of other packages that look at it. */
public final class RedisClientAccess {

  private RedisClientAccess() {}

  /** The connection's client, made now if need be; throws as a limiter's call would. */
  public static UnifiedJedis client(RedisConnection connection) {
    return connection.client();
  }
}
