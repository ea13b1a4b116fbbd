package io.tollgate.redis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * {@link RedisScripts} on a Jedis client. Kept out of {@link RedisConnection}, whose class is
 * loaded whenever Redis is configured, so that the exception class caught here loads only when a
 * script first runs.
 */
final class ScriptRuns {

  private ScriptRuns() {}

  /** One call; for a script made of steps, the reply of its one step. */
  static Object eval(UnifiedJedis redis, LuaScript script, List<byte[]> keys, List<byte[]> args) {
    Object reply = whole(redis, script, keys, args);
    return script.steps() ? ((List<?>) reply).get(0) : reply;
  }

  /** One call, its reply as the script answered it. */
  private static Object whole(UnifiedJedis redis, LuaScript script, List<byte[]> keys,
      List<byte[]> args) {
    try {
      return redis.evalsha(script.sha1Bytes(), keys, args);
    } catch (JedisNoScriptException e) {
      // Routed by the same key, EVAL reaches the node that said NOSCRIPT and caches the script.
      return redis.eval(script.sourceBytes(), keys, args);
    }
  }

  /**
   * Each call once (see {@link RedisScripts#evalAll}).
   *
   * @throws RuntimeException the first run's failure, once every run was sent
   */
  static List<Object> evalAll(UnifiedJedis redis, LuaScript script, List<RedisScripts.Call> calls) {
    List<Object> replies = replies(redis, script, calls);
    for (Object reply : replies) {
      if (reply instanceof RuntimeException failure) {
        throw failure;
      }
    }
    return replies;
  }

  /**
   * Each call once, nothing sent twice: the steps of a script made of steps in one call on a
   * standalone Redis; otherwise one pipeline on a standalone client, one pipeline per node on a
   * Cluster (which follows no redirection and retries nothing). A call that met NOSCRIPT did not
   * happen and goes again, whole. A call that failed alone (a script error, a refused write) has
   * its exception in its place among the replies; a failure of the whole round trip is thrown.
   */
  static List<Object> replies(UnifiedJedis redis, LuaScript script, List<RedisScripts.Call> calls) {
    if (script.steps() && redis instanceof PooledRedis) {
      return together(redis, script, calls);
    }
    Object[] replies = new Object[calls.size()];
    List<Integer> unknown = new ArrayList<>();
    List<Response<Object>> sent = pipelined(redis, script, false, calls);
    for (int i = 0; i < replies.length; i++) {
      replies[i] = reply(script, sent.get(i));
      if (replies[i] instanceof JedisNoScriptException) {
        unknown.add(i);
      }
    }
    if (!unknown.isEmpty()) {
      List<Response<Object>> resent =
          pipelined(redis, script, true, unknown.stream().map(calls::get).toList());
      for (int i = 0; i < unknown.size(); i++) {
        replies[unknown.get(i)] = reply(script, resent.get(i));
      }
    }
    return Arrays.asList(replies);
  }

  /** The steps of {@code calls} as one call of the script: every key, every argument, in order. */
  private static List<Object> together(UnifiedJedis redis, LuaScript script,
      List<RedisScripts.Call> calls) {
    List<byte[]> keys = new ArrayList<>(calls.size());
    List<byte[]> args = new ArrayList<>(calls.size());
    for (RedisScripts.Call call : calls) {
      keys.addAll(call.keys());
      args.addAll(call.args());
    }
    @SuppressWarnings("unchecked")
    List<Object> replies = (List<Object>) whole(redis, script, keys, args);
    return replies;
  }

  private static Object reply(LuaScript script, Response<Object> response) {
    try {
      Object reply = response.get();
      return script.steps() ? ((List<?>) reply).get(0) : reply;
    } catch (RuntimeException failure) {
      return failure;
    }
  }

  /**
   * EVALSHA, or EVAL of the whole script, of each call in one pipeline (per node). Both kinds are
   * an {@code AbstractPipeline}, with the same {@code eval}, {@code evalsha}, {@code sync} and
   * {@code close} in Jedis 6, 7 and 8.
   */
  private static List<Response<Object>> pipelined(UnifiedJedis redis, LuaScript script,
      boolean whole, List<RedisScripts.Call> calls) {
    List<Response<Object>> responses = new ArrayList<>(calls.size());
    try (AbstractPipeline pipeline = redis instanceof PooledRedis pooled
        ? pooled.pipeline() : ((JedisCluster) redis).pipelined()) {
      for (RedisScripts.Call call : calls) {
        responses.add(whole
            ? pipeline.eval(script.sourceBytes(), call.keys(), call.args())
            : pipeline.evalsha(script.sha1Bytes(), call.keys(), call.args()));
      }
      pipeline.sync();
    }
    return responses;
  }
}
