package io.tollgate.config;

import io.tollgate.limiter.LeasePolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A {@code leases:} section inside {@code limits:}: decisions on a hot subject served from local
 * leases, batches of permits this JVM takes from the shared bucket in one Redis call. Leases never
 * admit more than the limits; they trade some fairness between JVMs for far fewer round trips.
 * Only a Redis limiter leases; in memory, every decision is local already.
 *
 * <pre>{@code
 * limits:
 *   requests-per-minute: 6000
 *   leases: { size: auto, ttl: 200ms }
 * }</pre>
 */
public final class LeasesConfig {

  public static final Duration DEFAULT_TTL = LeasePolicy.DEFAULT_TTL;
  static final String AUTO = "auto";

  private final LeasePolicy policy;

  private LeasesConfig(LeasePolicy policy) {
    this.policy = policy;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@code size}: {@code auto} (default), leases sized to the demand this JVM saw over one
   * {@code ttl} and at most one {@code ttl} of the limit's refill; or a whole number of calls per
   * lease. Either way a lease is smaller near the limit and none when the bucket is nearly empty.
   * Empty for {@code auto}.
   */
  public OptionalLong size() {
    return policy.calls();
  }

  /** {@code ttl}: how long a lease lives before its unspent part goes back; default 200ms, at most 1m. */
  public Duration ttl() {
    return policy.ttl();
  }

  /** The limiter's view. */
  public LeasePolicy toPolicy() {
    return policy;
  }

  /** {@code auto} or a whole number > 0; the exception's message continues the key's sentence. */
  static OptionalLong parseSize(String text) {
    if (text.equals(AUTO)) {
      return OptionalLong.empty();
    }
    long calls;
    try {
      calls = Values.wholeNumber(text);
    } catch (IllegalArgumentException e) {
      calls = 0;
    }
    if (calls <= 0) {
      throw new IllegalArgumentException("must be auto or a whole number of calls > 0");
    }
    return OptionalLong.of(calls);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LeasesConfig other && policy.equals(other.policy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(policy);
  }

  @Override
  public String toString() {
    return "{size=" + (size().isPresent() ? Long.toString(size().getAsLong()) : AUTO)
        + ", ttl=" + Durations.format(ttl()) + "}";
  }

  /** Collects the section; each setter rejects a bad value at once, naming its key. */
  public static final class Builder {
    private OptionalLong size = OptionalLong.empty();
    private Duration ttl = DEFAULT_TTL;

    private Builder() {}

    /** Empty for {@code auto}. */
    public Builder size(OptionalLong size) {
      Objects.requireNonNull(size, "size");
      if (size.isPresent() && size.getAsLong() <= 0) {
        throw new ConfigException("size", "must be auto or a whole number of calls > 0, was "
            + size.getAsLong());
      }
      this.size = size;
      return this;
    }

    /** {@code auto} or a whole number of calls, as written. */
    public Builder size(String text) {
      Objects.requireNonNull(text, "size");
      try {
        return size(parseSize(text.trim()));
      } catch (ConfigException e) {
        throw e;
      } catch (IllegalArgumentException e) {
        throw new ConfigException("size", e.getMessage() + ", was " + ConfigException.shown(text));
      }
    }

    public Builder ttl(Duration ttl) {
      Objects.requireNonNull(ttl, "ttl");
      if (ttl.toMillis() < 1 || ttl.compareTo(LeasePolicy.MAX_TTL) > 0) {
        throw new ConfigException("ttl", "must be between 1ms and 1m, was " + Durations.format(ttl));
      }
      this.ttl = ttl;
      return this;
    }

    public LeasesConfig build() {
      return new LeasesConfig(new LeasePolicy(size, ttl));
    }
  }
}
