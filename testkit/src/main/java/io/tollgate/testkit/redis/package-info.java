/**
 * Throw-away, real Redis for tests: {@link io.tollgate.testkit.redis.RedisServer} (standalone) and
 * {@link io.tollgate.testkit.redis.RedisCluster} (3 masters, 3 replicas), both run from the {@code
 * redis-server} chosen by {@link io.tollgate.testkit.redis.RedisBinary}.
 *
 * <p>Every process started here dies with the JVM, whether the JVM exits or is killed, and nothing
 * is persisted: each start begins empty. Failures throw {@link
 * io.tollgate.testkit.redis.RedisFixtureException} carrying the server's own log.
 */
package io.tollgate.testkit.redis;
