package io.tollgate.redis;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Pipeline;
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

  static Object eval(UnifiedJedis redis, LuaScript script, List<byte[]> keys, List<byte[]> args) {
    try {
      return redis.evalsha(script.sha1Bytes(), keys, args);
    } catch (JedisNoScriptException e) {
      // Routed by the same key, EVAL reaches the node that said NOSCRIPT and caches the script.
      return redis.eval(script.sourceBytes(), keys, args);
    }
  }

  /** One pipeline on a pooled standalone client; one by one on a Cluster (see the port). */
  static List<Object> evalAll(UnifiedJedis redis, LuaScript script, List<RedisScripts.Call> calls) {
    List<Object> replies = new ArrayList<>(calls.size());
    if (!(redis instanceof PooledRedis pooled) || calls.size() < 2) {
      for (RedisScripts.Call call : calls) {
        replies.add(eval(redis, script, call.keys(), call.args()));
      }
      return replies;
    }
    List<Response<Object>> responses = new ArrayList<>(calls.size());
    try (Pipeline pipeline = pooled.pipeline()) {
      for (RedisScripts.Call call : calls) {
        responses.add(pipeline.evalsha(script.sha1Bytes(), call.keys(), call.args()));
      }
      pipeline.sync();
    }
    for (int i = 0; i < calls.size(); i++) {
      Object reply;
      try {
        reply = responses.get(i).get();
      } catch (JedisNoScriptException e) {
        // that run did not happen: sent alone, EVAL runs it and caches the script again
        reply = pooled.eval(script.sourceBytes(), calls.get(i).keys(), calls.get(i).args());
      }
      replies.add(reply);
    }
    return replies;
  }
}
