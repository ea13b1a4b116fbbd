package io.tollgate.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code tollgate.breaker} section: when a provider's circuit breaker opens and for how long.
 * One breaker per provider, all with these settings.
 *
 * <p>A failed probe lengthens the next open time: {@code open-for}, then twice that, four times,
 * ... up to {@code max-open-for}. When {@code max-open-for} is not set it is the larger of
 * {@link #DEFAULT_MAX_OPEN_FOR} and {@code open-for}, so that a long {@code open-for} alone is
 * never an error.
 */
public final class BreakerConfig {

  public static final int DEFAULT_FAILURES = 3;
  public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);
  public static final Duration DEFAULT_OPEN_FOR = Duration.ofSeconds(30);
  public static final Duration DEFAULT_MAX_OPEN_FOR = Duration.ofMinutes(5);

  private static final BreakerConfig DEFAULTS = new Builder().build();

  private final int failures;
  private final Duration window;
  private final Duration openFor;
  private final Duration maxOpenFor;

  private BreakerConfig(Builder builder, Duration maxOpenFor) {
    this.failures = builder.failures;
    this.window = builder.window;
    this.openFor = builder.openFor;
    this.maxOpenFor = maxOpenFor;
  }

  /** 3 failures within 10s open a breaker for 30s; failed probes lengthen that up to 5m. */
  public static BreakerConfig ofDefaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@code failures}: consecutive failures (429, 5xx, timeout, connection error) within
   * {@link #window()} that open the breaker; default 3.
   */
  public int failures() {
    return failures;
  }

  /** {@code window}: how recent those failures must be; default 10s. */
  public Duration window() {
    return window;
  }

  /** {@code open-for}: how long an open breaker refuses calls before one probe is let through; default 30s. */
  public Duration openFor() {
    return openFor;
  }

  /**
   * {@code max-open-for}: the longest open time that failed probes can lead to (each doubles it);
   * default 5m, or {@code open-for} when that is longer.
   */
  public Duration maxOpenFor() {
    return maxOpenFor;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BreakerConfig other
        && failures == other.failures
        && window.equals(other.window)
        && openFor.equals(other.openFor)
        && maxOpenFor.equals(other.maxOpenFor);
  }

  @Override
  public int hashCode() {
    return Objects.hash(failures, window, openFor, maxOpenFor);
  }

  @Override
  public String toString() {
    return "{failures=" + failures + ", window=" + Durations.format(window)
        + ", open-for=" + Durations.format(openFor)
        + ", max-open-for=" + Durations.format(maxOpenFor) + "}";
  }

  /**
   * Collects the section; each setter rejects a bad value at once, {@link #build()} checks
   * max-open-for against open-for.
   */
  public static final class Builder {
    private int failures = DEFAULT_FAILURES;
    private Duration window = DEFAULT_WINDOW;
    private Duration openFor = DEFAULT_OPEN_FOR;
    private Duration maxOpenFor; // null: the default, never below open-for

    private Builder() {}

    public Builder failures(int failures) {
      if (failures <= 0) {
        throw new ConfigException("failures", "must be > 0, was " + failures);
      }
      this.failures = failures;
      return this;
    }

    public Builder window(Duration window) {
      Durations.requirePositive("window", window);
      this.window = window;
      return this;
    }

    public Builder openFor(Duration openFor) {
      Durations.requirePositive("open-for", openFor);
      this.openFor = openFor;
      return this;
    }

    public Builder maxOpenFor(Duration maxOpenFor) {
      Durations.requirePositive("max-open-for", maxOpenFor);
      this.maxOpenFor = maxOpenFor;
      return this;
    }

    public BreakerConfig build() {
      if (maxOpenFor == null) {
        Duration longest = openFor.compareTo(DEFAULT_MAX_OPEN_FOR) > 0 ? openFor : DEFAULT_MAX_OPEN_FOR;
        return new BreakerConfig(this, longest);
      }
      if (maxOpenFor.compareTo(openFor) < 0) {
        throw new ConfigException("max-open-for", "must be >= open-for (" + Durations.format(openFor)
            + "), was " + Durations.format(maxOpenFor));
      }
      return new BreakerConfig(this, maxOpenFor);
    }
  }
}
