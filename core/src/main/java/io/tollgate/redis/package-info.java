/**
 * Redis behind one port: {@link io.tollgate.redis.RedisConnection} (a standalone Redis or a
 * Cluster, made on first use) and {@link io.tollgate.redis.RedisScripts}, the one thing the
 * limiter and the breakers ask of it, running a script of {@code lua/} on a set of keys. This is
 * the only package of the core that knows the Redis client library (Jedis); it sits below every
 * other package.
 */
package io.tollgate.redis;
