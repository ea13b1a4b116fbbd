package io.tollgate.bench.limiter;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * The anchor the limiter is judged by (../shared/anchor-bench): a plain dual token bucket in Lua
 * ({@code bench/token_bucket.lua}, the harness's own script): one hash per subject, requests and
 * tokens, server time, no settle. One EVALSHA per decision, on the same pooled client as the other
 * contenders that are not Tollgate.
 */
final class PlainBucketScenario implements Scenario {

  static final String NAME = "plain Lua dual token bucket (anchor)";

  private final UnifiedJedis redis;
  private final String sha1;
  private final List<List<String>> keys = new ArrayList<>(Workload.SUBJECTS);
  private final List<String> args = List.of(Long.toString(Workload.REQUESTS_PER_MINUTE),
      Long.toString(Workload.TOKENS_PER_MINUTE), "60000", Long.toString(Workload.ESTIMATE));

  PlainBucketScenario(UnifiedJedis redis) {
    this.redis = redis;
    this.sha1 = redis.scriptLoad(script());
    for (int i = 0; i < Workload.SUBJECTS; i++) {
      keys.add(List.of("{anchor-" + i + "}:tb"));
    }
  }

  private static String script() {
    try (InputStream in = PlainBucketScenario.class.getResourceAsStream("/bench/token_bucket.lua")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Call caller(int thread, int threads) {
    Workload.Cursor cursor = new Workload.Cursor(keys.size(), thread, threads);
    return () -> {
      List<?> reply = (List<?>) redis.evalsha(sha1, keys.get(cursor.next()), args);
      return (Long) reply.get(0) == 1;
    };
  }
}
