package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Spend per calendar day and month (UTC): the budget is whole again when the next one starts, a
 * refund goes back only to the period it was charged in. On a fake clock in memory; in Redis on
 * state written as the script writes it in an earlier month.
 */
class CalendarSpendTest {

  private static RedisServer server;
  private static RedisRateLimiter redis;

  @BeforeAll
  static void start() {
    server = RedisServer.start();
    redis = RedisLimiters.owning(RedisConnection.standalone(server.uri())
        .timeout(Duration.ofSeconds(2)).build(), Duration.ofMinutes(10));
  }

  @AfterAll
  static void stop() {
    redis.close();
    server.close();
  }

  private final Subject tenant = Subject.of("tenant", "acme");

  private static FakeClock clockAt(String instant) {
    FakeClock clock = new FakeClock();
    clock.advance(Duration.between(Instant.ofEpochSecond(0, clock.nowMicros() * 1000), Instant.parse(instant)));
    return clock;
  }

  @Test
  void aMonthlyBudgetIsWholeAgainWhenTheNextMonthStarts() {
    FakeClock clock = clockAt("2026-01-31T23:59:58Z");
    RateLimiter limiter = RateLimiter.inMemory(clock, Duration.ofDays(2));
    Limits limits = Limits.of(Limit.spendPerMonth(5_000_000));

    Decision spent = limiter.reserve(tenant, limits, 1, 10, 5_000_000);
    Decision refused = limiter.reserve(tenant, limits, 1, 10, 1);
    clock.advance(Duration.ofSeconds(2)); // 2026-02-01T00:00:00Z
    Decision february = limiter.reserve(tenant, limits, 1, 10, 4_000_000);

    assertThat(spent.allowed()).isTrue();
    assertThat(spent.limits().get(0).untilFull()).isEqualTo(Duration.ofSeconds(2));
    assertThat(refused.outcome()).isEqualTo(Outcome.DENIED);
    assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(2));
    assertThat(february.allowed()).isTrue();
    assertThat(february.limits().get(0).remaining()).isEqualTo(1_000_000);
    // February has 28 days in 2026
    assertThat(february.limits().get(0).untilFull()).isEqualTo(Duration.ofDays(28));
  }

  @Test
  void aRefundOfLastMonthsCallDoesNotGiveThisMonthRoom() {
    FakeClock clock = clockAt("2026-11-30T23:59:00Z");
    RateLimiter limiter = RateLimiter.inMemory(clock, Duration.ofDays(2));
    Limits limits = Limits.of(Limit.spendPerMonth(1_000_000));

    Reservation november = limiter.reserve(tenant, limits, 1, 10, 600_000).reservation().orElseThrow();
    clock.advance(Duration.ofMinutes(2));
    Reservation december = limiter.reserve(tenant, limits, 1, 10, 1_000_000).reservation().orElseThrow();
    limiter.settle(november, 10, 0); // the November call failed: nothing goes back to December
    Decision after = limiter.reserve(tenant, limits, 1, 10, 1);

    assertThat(december.spend()).isEqualTo(1_000_000);
    assertThat(after.outcome()).isEqualTo(Outcome.DENIED);
  }

  @Test
  void aDailyBudgetRollsAtMidnightUtc() {
    FakeClock clock = clockAt("2026-12-03T23:00:00Z");
    RateLimiter limiter = RateLimiter.inMemory(clock, Duration.ofDays(2));
    Limits limits = Limits.of(Limit.spendPerDay(2_000_000));

    limiter.reserve(tenant, limits, 1, 10, 2_000_000);
    Decision refused = limiter.reserve(tenant, limits, 1, 10, 1);
    clock.advance(Duration.ofHours(1));

    assertThat(refused.retryAfter()).isEqualTo(Duration.ofHours(1));
    assertThat(limiter.reserve(tenant, limits, 1, 10, 2_000_000).allowed()).isTrue();
  }

  @Test
  void inRedisWhatWasSpentInAnEarlierMonthNoLongerCounts() {
    Limits limits = Limits.of(Limit.spendPerMonth(1_000_000), Limit.spendPerDay(800_000));
    Limit monthly = limits.all().get(0);
    Limit daily = limits.all().get(1);
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    long lastMonth = today.getYear() * 12L + today.getMonthValue() - 2;
    try (Jedis jedis = new Jedis(server.uri())) {
      // as the script wrote it last month and yesterday: the whole budgets spent
      jedis.hset(RedisKeys.stateKey(tenant), Map.of(
          monthly.stateField(), "1000000", monthly.stateField() + ":w", Long.toString(lastMonth),
          daily.stateField(), "800000", daily.stateField() + ":w", Long.toString(today.toEpochDay() - 1)));
    }

    Decision decision = redis.reserve(tenant, limits, 1, 10, 700_000);

    assertThat(decision.allowed()).isTrue();
    assertThat(decision.limits()).extracting(LimitState::remaining).containsExactly(300_000L, 100_000L);
    long untilTomorrow = Duration.between(Instant.now(),
        today.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant()).toMillis();
    assertThat(decision.limits().get(1).untilFull().toMillis()).isBetween(untilTomorrow - 5_000, untilTomorrow + 5_000);
    long untilNextMonth = Duration.between(Instant.now(),
        today.withDayOfMonth(1).plusMonths(1).atStartOfDay(ZoneOffset.UTC).toInstant()).toMillis();
    assertThat(decision.limits().get(0).untilFull().toMillis()).isBetween(untilNextMonth - 5_000, untilNextMonth + 5_000);
  }
}
