package io.tollgate.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code tollgate.breaker} section: when a provider's circuit breaker opens and for how long.
 * One breaker per provider, all with these settings.
 */
public final class BreakerConfig {

  public static final int DEFAULT_FAILURES = 3;
  public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);
  public static final Duration DEFAULT_OPEN_FOR = Duration.ofSeconds(30);

  private static final BreakerConfig DEFAULTS = new Builder().build();

  private final int failures;
  private final Duration window;
  private final Duration openFor;

  private BreakerConfig(Builder builder) {
    this.failures = builder.failures;
    this.window = builder.window;
    this.openFor = builder.openFor;
  }

  /** 3 failures within 10s open a breaker for 30s. */
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

  @Override
  public boolean equals(Object o) {
    return o instanceof BreakerConfig other
        && failures == other.failures
        && window.equals(other.window)
        && openFor.equals(other.openFor);
  }

  @Override
  public int hashCode() {
    return Objects.hash(failures, window, openFor);
  }

  @Override
  public String toString() {
    return "{failures=" + failures + ", window=" + Durations.format(window)
        + ", open-for=" + Durations.format(openFor) + "}";
  }

  /** Collects the section; each setter rejects a bad value at once. */
  public static final class Builder {
    private int failures = DEFAULT_FAILURES;
    private Duration window = DEFAULT_WINDOW;
    private Duration openFor = DEFAULT_OPEN_FOR;

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

    public BreakerConfig build() {
      return new BreakerConfig(this);
    }
  }
}
