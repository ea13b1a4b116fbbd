package io.tollgate.limiter;

import io.tollgate.redis.RedisConnection;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@link RateLimiter#resilient} decides while the shared limiter cannot answer; immutable,
 * made by {@link #custom()}...{@link Builder#build()} or {@link #ofDefaults()}.
 */
public final class ResilienceConfig {

  public static final FailurePolicy DEFAULT_ON_FAILURE = FailurePolicy.FAIL_OPEN;
  public static final Duration DEFAULT_PROBE_AFTER = Duration.ofMillis(500);
  public static final double DEFAULT_LOCAL_SHARE = 1.0;
  /** Five of {@link RedisConnection#DEFAULT_TIMEOUT}: a few batches, even from a slow Redis. */
  public static final Duration DEFAULT_DRAIN_ON_CLOSE =
      Duration.ofMillis(RedisConnection.DEFAULT_TIMEOUT_MILLIS * 5);

  private static final ResilienceConfig DEFAULTS = custom().build();

  private final FailurePolicy onFailure;
  private final double localShare;
  private final Duration probeAfter;
  private final Duration reservationTtl;
  private final Duration drainOnClose;
  private final MicroClock clock;

  private ResilienceConfig(Builder builder) {
    this.onFailure = builder.onFailure;
    this.localShare = builder.localShare;
    this.probeAfter = builder.probeAfter;
    this.reservationTtl = builder.reservationTtl;
    this.drainOnClose = builder.drainOnClose;
    this.clock = builder.clock;
  }

  public static ResilienceConfig ofDefaults() {
    return DEFAULTS;
  }

  public static Builder custom() {
    return new Builder();
  }

  /** What decides while Redis cannot answer; fail-open (a local guard) by default. */
  public FailurePolicy onFailure() {
    return onFailure;
  }

  /** Fraction of each limit one JVM may spend on its own while Redis is unreachable. */
  public double localShare() {
    return localShare;
  }

  /** How long the breaker around Redis stays open before one call probes it again. */
  public Duration probeAfter() {
    return probeAfter;
  }

  /** How long a reservation of the local guard can still be settled or released. */
  public Duration reservationTtl() {
    return reservationTtl;
  }

  /** How long closing waits, at most, for settles still queued by {@code settleLater}. */
  public Duration drainOnClose() {
    return drainOnClose;
  }

  /** The local guard's clock. */
  public MicroClock clock() {
    return clock;
  }

  /** Configures a {@link ResilienceConfig}; every setter rejects a bad value at once. */
  public static final class Builder {
    private FailurePolicy onFailure = DEFAULT_ON_FAILURE;
    private double localShare = DEFAULT_LOCAL_SHARE;
    private Duration probeAfter = DEFAULT_PROBE_AFTER;
    private Duration reservationTtl = RateLimiter.DEFAULT_RESERVATION_TTL;
    private Duration drainOnClose = DEFAULT_DRAIN_ON_CLOSE;
    private MicroClock clock = MicroClock.system();

    private Builder() {}

    public Builder onFailure(FailurePolicy policy) {
      this.onFailure = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Fraction of each limit one JVM may spend on its own while Redis is unreachable. */
    public Builder localShare(double share) {
      if (!(share > 0 && share <= 1)) {
        throw new IllegalArgumentException("local-share must be in (0, 1], was " + share);
      }
      this.localShare = share;
      return this;
    }

    /** How long the breaker stays open before one call probes Redis again. */
    public Builder probeAfter(Duration probeAfter) {
      if (probeAfter.isNegative() || probeAfter.isZero()) {
        throw new IllegalArgumentException("probe-after must be > 0, was " + probeAfter);
      }
      this.probeAfter = probeAfter;
      return this;
    }

    public Builder reservationTtl(Duration ttl) {
      this.reservationTtl = Objects.requireNonNull(ttl, "reservationTtl");
      return this;
    }

    /**
     * How long closing waits for settles still queued by {@code settleLater} to reach Redis: a
     * few of the Redis client's timeout (from a configuration: 5 × {@code timeout}).
     */
    public Builder drainOnClose(Duration drainOnClose) {
      if (drainOnClose.isNegative()) {
        throw new IllegalArgumentException("drain-on-close must be >= 0, was " + drainOnClose);
      }
      this.drainOnClose = drainOnClose;
      return this;
    }

    /** The local guard's clock (tests pass a fake one). */
    public Builder clock(MicroClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public ResilienceConfig build() {
      return new ResilienceConfig(this);
    }
  }
}
