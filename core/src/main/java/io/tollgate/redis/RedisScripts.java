package io.tollgate.redis;

import java.util.List;

/**
 * All that the core asks of Redis: run a script of {@code lua/} on a set of keys. The limiter and
 * the breakers talk to Redis through this alone, so that the Redis client library stays in this
 * package.
 *
 * <p>Every key of one run shares a hash tag, so that a Redis Cluster runs it on one node; the
 * implementation routes each run by its keys and follows the Cluster's redirections. A script the
 * node does not hold (NOSCRIPT, after a restart, a failover or {@code SCRIPT FLUSH}) is sent whole
 * once, which caches it there again.
 *
 * <p>A failure of Redis (unreachable, timeout, CLUSTERDOWN, a refused login, an exhausted pool) is
 * thrown as an unchecked exception that {@link RedisFailures} classifies and describes.
 */
public interface RedisScripts {

  /**
   * Runs {@code script} on {@code keys} with {@code args}.
   *
   * @return the script's reply: a {@code Long}, a {@code byte[]} or a {@code List} of them; for a
   *     script made of steps ({@link LuaScript#loadSteps}), the reply of the one step
   */
  Object eval(LuaScript script, List<byte[]> keys, List<byte[]> args);

  /**
   * True when {@link #evalAll} sends its runs in one round trip now: a standalone Redis whose
   * client is made. Never connects: connecting is the business of the first run.
   */
  boolean pipelines();

  /**
   * Runs {@code script} at most once per call: on a standalone Redis the steps of a script made of
   * steps in calls of the script shared with the steps other threads ask at the time, any other
   * script's calls in one pipeline; on a Cluster one pipeline per node. Nothing is sent twice (no retry after a timeout, no redirection followed), so a run that
   * changes a count is never applied twice; a run that met NOSCRIPT did not happen, and is sent
   * again, whole.
   *
   * @return each call's reply, in the order of {@code calls}
   */
  List<Object> evalAll(LuaScript script, List<Call> calls);

  /** One run of a script: its keys and its arguments. */
  record Call(List<byte[]> keys, List<byte[]> args) {}
}
