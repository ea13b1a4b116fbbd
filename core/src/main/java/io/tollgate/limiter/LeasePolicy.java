package io.tollgate.limiter;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Local leases for a hot subject: a JVM takes a batch of requests and tokens from the shared bucket
 * in one script call and serves decisions from it, giving back what it did not spend when the lease
 * ends. Every permit served was taken from the shared bucket first, so leases never admit more than
 * the limit; they trade some fairness between JVMs for far fewer round trips. See docs/limiter.md.
 *
 * @param calls calls' worth per lease ({@code size: 50}); empty for {@code size: auto}, the demand
 *     this JVM saw, over one {@code ttl}
 * @param ttl how long a lease lives before its unspent part goes back ({@code ttl: 200ms})
 */
public record LeasePolicy(OptionalLong calls, Duration ttl) {

  public static final Duration DEFAULT_TTL = Duration.ofMillis(200);
  /** Longest lease: unspent permits are idle for up to this long, and lost with a killed JVM. */
  public static final Duration MAX_TTL = Duration.ofMinutes(1);

  public LeasePolicy {
    Objects.requireNonNull(calls, "calls");
    Objects.requireNonNull(ttl, "ttl");
    if (calls.isPresent() && calls.getAsLong() <= 0) {
      throw new IllegalArgumentException("lease size must be > 0, was " + calls.getAsLong());
    }
    if (ttl.toMillis() < 1 || ttl.compareTo(MAX_TTL) > 0) {
      throw new IllegalArgumentException("lease ttl must be between 1ms and 1m, was " + ttl);
    }
  }

  /** Leases sized to the demand seen, each living {@code ttl}. */
  public static LeasePolicy auto(Duration ttl) {
    return new LeasePolicy(OptionalLong.empty(), ttl);
  }

  /** Leases of {@code calls} calls' worth (less near the limit), each living {@code ttl}. */
  public static LeasePolicy ofCalls(long calls, Duration ttl) {
    return new LeasePolicy(OptionalLong.of(calls), ttl);
  }

  @Override
  public String toString() {
    return "leases(size=" + (calls.isPresent() ? Long.toString(calls.getAsLong()) : "auto")
        + ", ttl=" + ttl + ")";
  }
}
