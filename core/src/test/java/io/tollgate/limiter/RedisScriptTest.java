package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** What {@code lua/limiter.lua} leaves in a real Redis: keys, expiry, memory, script cache. */
class RedisScriptTest {

  private static RedisServer server;
  private static RedisRateLimiter limiter;
  private static Jedis jedis;

  @BeforeAll
  static void start() {
    server = RedisServer.start();
    limiter = RedisLimiters.owning(RedisConnection.standalone(server.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(8).build(), Duration.ofSeconds(30));
    jedis = server.jedis();
  }

  @AfterAll
  static void stop() {
    jedis.close();
    limiter.close();
    server.close();
  }

  @BeforeEach
  void clean() {
    server.flushAll();
  }

  @Test
  void keysCarryOnlyTheHashOfTheIdUnderOneHashTag() {
    String apiKey = "sk-live-secret-{tenant}\nX";
    Subject subject = Subject.of("tenant", apiKey);

    Reservation reservation = limiter.reserve(subject,
        Limits.of(Limit.requests(10, Duration.ofMinutes(1)), Limit.tokens(1000, Duration.ofMinutes(1))),
        100).reservation().orElseThrow();

    Set<String> keys = jedis.keys("*");
    assertThat(reservation.tokens()).isEqualTo(100);
    assertThat(keys).containsExactly("tg:" + subject.hashTag() + ":s"); // no record per call
    assertThat(String.join(" ", keys)).doesNotContain("secret").doesNotContain("\n");
    assertThat(keys).allSatisfy(key -> assertThat(
        redis.clients.jedis.util.JedisClusterCRC16.getSlot(key))
        .isEqualTo(redis.clients.jedis.util.JedisClusterCRC16.getSlot(subject.hashTag())));
  }

  @Test
  void anIdleSubjectExpiresWhenItWouldBeFullAnyway() {
    Subject subject = Subject.of("tenant", "ttl");
    Limits limits = Limits.of(Limit.requests(60, Duration.ofMinutes(1)),
        Limit.tokens(1000, Duration.ofHours(1)));

    limiter.reserve(subject, limits, 1, 250);

    // 250 tokens at 1000 per hour refill in 900 s; the key lives that long plus a 1 s margin
    long ttl = jedis.pttl(RedisKeys.stateKey(subject));
    assertThat(ttl).isCloseTo(901_000L, within(1_000L));
  }

  @Test
  void aDualPerMinuteSubjectTakesAtMost256BytesOfRedis() {
    Subject subject = Subject.of("tenant", "memory-" + "x".repeat(200));
    Limits limits = Limits.of(Limit.requests(500, Duration.ofMinutes(1)),
        Limit.tokens(200_000, Duration.ofMinutes(1)));
    Reservation reservation = limiter.reserve(subject, limits, 1000).reservation().orElseThrow();
    limiter.settle(reservation, 800);

    Long bytes = jedis.memoryUsage(RedisKeys.stateKey(subject));

    assertThat(jedis.keys("*")).hasSize(1);
    assertThat(bytes).isLessThanOrEqualTo(256L);
  }

  @Test
  void reloadsTheScriptAfterScriptFlushWithoutFailingTheCall() {
    Subject subject = Subject.of("tenant", "flush");
    Limits limits = Limits.of(Limit.requests(10, Duration.ofDays(1)));
    limiter.reserve(subject, limits, 1, 0);

    server.flushScripts();
    Decision after = limiter.reserve(subject, limits, 1, 0);

    assertThat(after.allowed()).isTrue();
    assertThat(after.remainingRequests()).isEqualTo(8);
  }

  @Test
  void aSettleThatMatchesTheEstimateSendsNothingAndADifferentOneIsAppliedOnce() {
    Subject subject = Subject.of("tenant", "settle");
    Limits limits = Limits.of(Limit.tokens(1000, Duration.ofDays(1)));
    Reservation exact = limiter.reserve(subject, limits, 100).reservation().orElseThrow();
    Reservation over = limiter.reserve(subject, limits, 100).reservation().orElseThrow();
    long runs = scriptRuns();

    assertThat(limiter.settle(exact, 100)).isTrue();
    assertThat(scriptRuns()).isEqualTo(runs);

    assertThat(limiter.settle(over, 40)).isTrue();
    assertThat(limiter.settle(over, 40)).isFalse();
    assertThat(limiter.release(over)).isFalse();
    assertThat(scriptRuns()).isEqualTo(runs + 1);
    // 1000 - 100 - 40 left, less the 1 token this reserve takes
    assertThat(limiter.reserve(subject, limits, 1).remainingTokens()).isEqualTo(859);
  }

  private long scriptRuns() {
    return jedis.info("commandstats").lines()
        .filter(line -> line.startsWith("cmdstat_evalsha:"))
        .mapToLong(line -> Long.parseLong(line.replaceAll("^cmdstat_evalsha:calls=(\\d+),.*", "$1")))
        .sum();
  }
}
