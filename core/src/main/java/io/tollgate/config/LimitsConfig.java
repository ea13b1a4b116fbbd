package io.tollgate.config;

import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.FailurePolicy;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.llm.Prices;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.StringJoiner;

/**
 * A {@code limits:} section: requests and tokens per second, minute, hour and day, any of them, all
 * enforced together ({@link #toLimits()}). Absent keys are no limit.
 *
 * <pre>{@code
 * LimitsConfig limits = LimitsConfig.builder().requestsPerMinute(500).tokensPerMinute(200_000).build();
 * }</pre>
 */
public final class LimitsConfig {

  /** How limits spread their capacity over time when {@code algorithm} is not given. */
  public static final Algorithm DEFAULT_ALGORITHM = Algorithm.TOKEN_BUCKET;

  private static final LimitsConfig NONE =
      new LimitsConfig(new EnumMap<>(LimitKey.class), null, null, null);

  private final Map<LimitKey, Long> values;
  /** Null when not written: an override that does not name one keeps its base's algorithm. */
  private final Algorithm algorithm;
  /** Null when not written: not leased, or (in an override) the base's leases. */
  private final LeasesConfig leases;
  /** Null when not written: {@code redis.on-failure} decides (or, in an override, the base's). */
  private final FailurePolicy onFailure;
  /** Null when there is no limit. Built here, so a value the limiter cannot count fails at load. */
  private final Limits limits;

  private LimitsConfig(EnumMap<LimitKey, Long> values, Algorithm algorithm, LeasesConfig leases,
      FailurePolicy onFailure) {
    this.values = Collections.unmodifiableMap(new EnumMap<>(values));
    this.algorithm = algorithm;
    this.leases = leases;
    this.onFailure = onFailure;
    List<Limit> all = new ArrayList<>(values.size());
    values.forEach((key, capacity) -> all.add(limit(key, capacity, algorithm())));
    Limits built = all.isEmpty() ? null : Limits.of(all);
    if (built != null && leases != null) {
      built = built.withLeases(leases.toPolicy());
    }
    this.limits = built != null && onFailure != null ? built.withOnFailure(onFailure) : built;
  }

  private static Limit limit(LimitKey key, long capacity, Algorithm algorithm) {
    try {
      if (key == LimitKey.USD_PER_DAY) {
        return Limit.spendPerDay(capacity);
      }
      if (key == LimitKey.USD_PER_MONTH) {
        return Limit.spendPerMonth(capacity);
      }
      return Limit.of(key.dimension, capacity, key.window, algorithm);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key.key, "is too large to count exactly, was " + capacity, e);
    }
  }

  /**
   * {@code token-bucket} or {@code sliding-window}: the algorithms a section may choose (spend is
   * always counted per calendar period).
   */
  static Algorithm parseAlgorithm(String text) {
    return switch (text) {
      case "token-bucket" -> Algorithm.TOKEN_BUCKET;
      case "sliding-window" -> Algorithm.SLIDING_WINDOW;
      default -> throw new IllegalArgumentException("must be one of token-bucket, sliding-window");
    };
  }

  /** No limit at all. */
  public static LimitsConfig none() {
    return NONE;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code requests-per-second}: calls admitted per second; empty when not limited. */
  public OptionalLong requestsPerSecond() {
    return get(LimitKey.REQUESTS_PER_SECOND);
  }

  /** {@code requests-per-minute}: calls admitted per minute; empty when not limited. */
  public OptionalLong requestsPerMinute() {
    return get(LimitKey.REQUESTS_PER_MINUTE);
  }

  /** {@code requests-per-hour}: calls admitted per hour; empty when not limited. */
  public OptionalLong requestsPerHour() {
    return get(LimitKey.REQUESTS_PER_HOUR);
  }

  /** {@code requests-per-day}: calls admitted per day; empty when not limited. */
  public OptionalLong requestsPerDay() {
    return get(LimitKey.REQUESTS_PER_DAY);
  }

  /** {@code tokens-per-second}: LLM tokens (prompt plus output) per second; empty when not limited. */
  public OptionalLong tokensPerSecond() {
    return get(LimitKey.TOKENS_PER_SECOND);
  }

  /** {@code tokens-per-minute}: LLM tokens (prompt plus output) per minute; empty when not limited. */
  public OptionalLong tokensPerMinute() {
    return get(LimitKey.TOKENS_PER_MINUTE);
  }

  /** {@code tokens-per-hour}: LLM tokens (prompt plus output) per hour; empty when not limited. */
  public OptionalLong tokensPerHour() {
    return get(LimitKey.TOKENS_PER_HOUR);
  }

  /** {@code tokens-per-day}: LLM tokens (prompt plus output) per day; empty when not limited. */
  public OptionalLong tokensPerDay() {
    return get(LimitKey.TOKENS_PER_DAY);
  }

  /**
   * {@code usd-per-day}: spend per calendar day (UTC), in micro-dollars (written in dollars); empty
   * when not limited.
   */
  public OptionalLong usdPerDayMicros() {
    return get(LimitKey.USD_PER_DAY);
  }

  /**
   * {@code usd-per-month}: spend per calendar month (UTC), in micro-dollars (written in dollars);
   * empty when not limited.
   */
  public OptionalLong usdPerMonthMicros() {
    return get(LimitKey.USD_PER_MONTH);
  }

  /** True when a spend limit is set: calls are priced. */
  public boolean limitsSpend() {
    return values.containsKey(LimitKey.USD_PER_DAY) || values.containsKey(LimitKey.USD_PER_MONTH);
  }

  /**
   * {@code algorithm}: {@code token-bucket} (continuous refill, bursts up to the capacity) or
   * {@code sliding-window} (matches providers that count per calendar window); default
   * {@link #DEFAULT_ALGORITHM token-bucket}.
   */
  public Algorithm algorithm() {
    return algorithm == null ? DEFAULT_ALGORITHM : algorithm;
  }

  /**
   * {@code leases}: serve decisions on these limits from local leases (a Redis limiter only); empty
   * when not set, and then no lease is taken.
   */
  public Optional<LeasesConfig> leases() {
    return Optional.ofNullable(leases);
  }

  /**
   * Parses limit keys as a {@code limits:} section holds them ({@code requests-per-minute},
   * {@code usd-per-day}, {@code algorithm}...), for limits given at runtime. A wrong key or value
   * fails naming {@code path} and the key, as a configuration file's would.
   *
   * @throws ConfigException naming the key at fault
   */
  public static LimitsConfig parse(String path, Map<String, String> texts) {
    return ConfigBinder.limits(path, texts);
  }

  /** The keys set here as a {@code limits:} section writes them: {@link #parse} reads them back. */
  public Map<String, String> texts() {
    Map<String, String> texts = new LinkedHashMap<>();
    values.forEach((key, value) -> texts.put(key.key, key.dimension == Dimension.SPEND
        ? Prices.toDollars(value).toPlainString() : Long.toString(value)));
    if (algorithm != null) {
      texts.put("algorithm", Values.name(algorithm));
    }
    if (onFailure != null) {
      texts.put("on-failure", Values.name(onFailure));
    }
    return texts;
  }

  /**
   * {@code on-failure}: what these limits decide while Redis cannot answer ({@code fail-open} or
   * {@code fail-closed}); empty: {@code redis.on-failure}'s.
   */
  public Optional<FailurePolicy> onFailure() {
    return Optional.ofNullable(onFailure);
  }

  /** True when no limit is set: nothing to enforce. */
  public boolean isEmpty() {
    return limits == null;
  }

  /**
   * These limits with {@code override}'s keys replacing ours one by one: a tenant override of
   * {@code requests-per-minute} keeps the base's token limits.
   */
  public LimitsConfig mergedWith(LimitsConfig override) {
    EnumMap<LimitKey, Long> merged = new EnumMap<>(LimitKey.class);
    merged.putAll(values);
    merged.putAll(override.values);
    Algorithm mergedAlgorithm = override.algorithm != null ? override.algorithm : algorithm;
    LeasesConfig mergedLeases = override.leases != null ? override.leases : leases;
    FailurePolicy mergedOnFailure = override.onFailure != null ? override.onFailure : onFailure;
    return new LimitsConfig(merged, mergedAlgorithm, mergedLeases, mergedOnFailure);
  }

  /**
   * The limiter's view: every limit set here, all charged together.
   *
   * @throws IllegalStateException when {@link #isEmpty()}: there is nothing to limit
   */
  public Limits toLimits() {
    if (limits == null) {
      throw new IllegalStateException("no limit is configured; check isEmpty() first");
    }
    return limits;
  }

  private OptionalLong get(LimitKey key) {
    Long value = values.get(key);
    return value == null ? OptionalLong.empty() : OptionalLong.of(value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LimitsConfig other
        && values.equals(other.values)
        && algorithm == other.algorithm
        && Objects.equals(leases, other.leases)
        && onFailure == other.onFailure;
  }

  @Override
  public int hashCode() {
    return Objects.hash(values, algorithm, leases, onFailure);
  }

  @Override
  public String toString() {
    StringJoiner text = new StringJoiner(", ", "{", "}");
    values.forEach((key, value) -> text.add(key.key + "=" + (key.dimension == Dimension.SPEND
        ? Prices.toDollars(value).toPlainString() : value)));
    if (algorithm != null) {
      text.add("algorithm=" + Values.name(algorithm));
    }
    if (leases != null) {
      text.add("leases=" + leases);
    }
    if (onFailure != null) {
      text.add("on-failure=" + Values.name(onFailure));
    }
    return text.toString();
  }

  /** Collects limits; each setter rejects a value that is not > 0 at once. */
  public static final class Builder {
    private final EnumMap<LimitKey, Long> values = new EnumMap<>(LimitKey.class);
    private Algorithm algorithm;
    private LeasesConfig leases;
    private FailurePolicy onFailure;

    private Builder() {}

    public Builder requestsPerSecond(long capacity) {
      return limit(LimitKey.REQUESTS_PER_SECOND, capacity);
    }

    public Builder requestsPerMinute(long capacity) {
      return limit(LimitKey.REQUESTS_PER_MINUTE, capacity);
    }

    public Builder requestsPerHour(long capacity) {
      return limit(LimitKey.REQUESTS_PER_HOUR, capacity);
    }

    public Builder requestsPerDay(long capacity) {
      return limit(LimitKey.REQUESTS_PER_DAY, capacity);
    }

    public Builder tokensPerSecond(long capacity) {
      return limit(LimitKey.TOKENS_PER_SECOND, capacity);
    }

    public Builder tokensPerMinute(long capacity) {
      return limit(LimitKey.TOKENS_PER_MINUTE, capacity);
    }

    public Builder tokensPerHour(long capacity) {
      return limit(LimitKey.TOKENS_PER_HOUR, capacity);
    }

    public Builder tokensPerDay(long capacity) {
      return limit(LimitKey.TOKENS_PER_DAY, capacity);
    }

    /** {@code usd-per-day} in dollars, at most six decimals. */
    public Builder usdPerDay(BigDecimal usd) {
      return limit(LimitKey.USD_PER_DAY, microUsd(LimitKey.USD_PER_DAY, usd));
    }

    /** {@code usd-per-month} in dollars, at most six decimals. */
    public Builder usdPerMonth(BigDecimal usd) {
      return limit(LimitKey.USD_PER_MONTH, microUsd(LimitKey.USD_PER_MONTH, usd));
    }

    private static long microUsd(LimitKey key, BigDecimal usd) {
      try {
        return Prices.toMicroUsd(usd);
      } catch (ArithmeticException e) {
        throw new ConfigException(key.key, "may have at most 6 decimals (a micro-dollar), was "
            + usd.toPlainString());
      }
    }

    public Builder algorithm(Algorithm algorithm) {
      if (algorithm == Algorithm.CALENDAR) {
        throw new ConfigException("algorithm", "must be one of token-bucket, sliding-window, was calendar");
      }
      this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
      return this;
    }

    public Builder leases(LeasesConfig leases) {
      this.leases = Objects.requireNonNull(leases, "leases");
      return this;
    }

    /** What these limits decide while Redis cannot answer, over {@code redis.on-failure}. */
    public Builder onFailure(FailurePolicy onFailure) {
      this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
      return this;
    }

    Builder limit(LimitKey key, long capacity) {
      if (capacity <= 0) {
        throw new ConfigException(key.key, "must be > 0, was " + capacity);
      }
      values.put(key, capacity);
      return this;
    }

    /** The limits; {@link LimitsConfig#none()} when none was set. */
    public LimitsConfig build() {
      return values.isEmpty() && algorithm == null && leases == null && onFailure == null
          ? NONE : new LimitsConfig(values, algorithm, leases, onFailure);
    }
  }
}
