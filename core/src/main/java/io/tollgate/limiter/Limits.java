package io.tollgate.limiter;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Every limit that applies to one subject; a call is admitted only when all of them have room,
 * and then all are charged together.
 */
public final class Limits {

  private final List<Limit> all;
  /** Null when decisions are not leased (the default). */
  private final LeasePolicy leases;
  /** Null: the limiter's own policy decides while the shared backend cannot answer. */
  private final FailurePolicy onFailure;
  /** Cached: leased subjects look their lease up by these limits on every call. */
  private final int hash;

  private Limits(List<Limit> all, LeasePolicy leases) {
    this(all, leases, null);
  }

  private Limits(List<Limit> all, LeasePolicy leases, FailurePolicy onFailure) {
    if (all.isEmpty()) {
      throw new IllegalArgumentException("at least one limit is needed");
    }
    Set<String> seen = new HashSet<>();
    for (Limit limit : all) {
      String slot = limit.group() + "/" + limit.dimension() + "/" + limit.window() + "/" + limit.algorithm();
      if (!seen.add(slot)) {
        throw new IllegalArgumentException("two limits on "
            + (limit.group().isEmpty() ? "" : limit.group() + " ") + limit.dimension().label()
            + " per " + limit.window() + ": " + all);
      }
    }
    this.all = List.copyOf(all);
    // a lease grants requests and tokens only: spend is charged on the shared state every call
    this.leases = capacity(Dimension.SPEND) >= 0 ? null : leases;
    this.onFailure = onFailure;
    this.hash = (this.all.hashCode() * 31 + Objects.hashCode(this.leases)) * 31
        + Objects.hashCode(onFailure);
  }

  public static Limits of(Limit... limits) {
    return new Limits(List.of(limits), null);
  }

  public static Limits of(List<Limit> limits) {
    return new Limits(new ArrayList<>(limits), null);
  }

  /**
   * These limits and {@code more}, all charged together: a provider account's and one model's.
   * Leased as these are, else as {@code more} is.
   */
  public Limits and(Limits more) {
    List<Limit> joined = new ArrayList<>(all);
    joined.addAll(more.all);
    // while Redis is down, the stricter of the two sets' policies
    FailurePolicy joinedOnFailure = onFailure == FailurePolicy.FAIL_CLOSED
        || more.onFailure == FailurePolicy.FAIL_CLOSED ? FailurePolicy.FAIL_CLOSED
        : onFailure != null ? onFailure : more.onFailure;
    return new Limits(joined, leases != null ? leases : more.leases, joinedOnFailure);
  }

  /** Every limit, each in {@code group} ({@link Limit#inGroup}). */
  public Limits inGroup(String group) {
    List<Limit> grouped = new ArrayList<>(all.size());
    for (Limit limit : all) {
      grouped.add(limit.inGroup(group));
    }
    return new Limits(grouped, leases, onFailure);
  }

  public List<Limit> all() {
    return all;
  }

  /** The largest cost this set can ever admit in {@code dimension}, or -1 when it has no limit there. */
  public long capacity(Dimension dimension) {
    long capacity = -1;
    for (Limit limit : all) {
      if (limit.dimension() == dimension) {
        capacity = capacity < 0 ? limit.capacity() : Math.min(capacity, limit.capacity());
      }
    }
    return capacity;
  }

  /**
   * These limits, served through local leases on a shared backend ({@link RedisRateLimiter});
   * a one-JVM limiter is local already and ignores them.
   */
  public Limits withLeases(LeasePolicy leases) {
    return new Limits(all, Objects.requireNonNull(leases, "leases"), onFailure);
  }

  /**
   * These limits, decided by {@code onFailure} while the shared backend cannot answer, whatever
   * the limiter's own policy ({@code on-failure} of a limits section).
   */
  public Limits withOnFailure(FailurePolicy onFailure) {
    return new Limits(all, leases, Objects.requireNonNull(onFailure, "onFailure"));
  }

  /** What these limits decide while the shared backend cannot answer, when they say. */
  public Optional<FailurePolicy> onFailure() {
    return Optional.ofNullable(onFailure);
  }

  /** How decisions on these limits are leased, if they are. */
  public Optional<LeasePolicy> leases() {
    return Optional.ofNullable(leases);
  }

  /**
   * These limits with each capacity multiplied by {@code share}: one JVM's local part, which is
   * not leased (it is local already).
   */
  public Limits scaled(double share) {
    List<Limit> scaled = new ArrayList<>(all.size());
    for (Limit limit : all) {
      scaled.add(limit.scaled(share));
    }
    return new Limits(scaled, null);
  }

  /**
   * These limits as a priority class allowed {@code share} of each sees them ({@link
   * Limit#sharing}); these same limits for a share of 1.
   */
  public Limits sharing(double share) {
    if (share == 1) {
      return this;
    }
    List<Limit> shared = new ArrayList<>(all.size());
    for (Limit limit : all) {
      shared.add(limit.sharing(share));
    }
    return new Limits(shared, leases, onFailure);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Limits other && hash == other.hash && all.equals(other.all)
        && Objects.equals(leases, other.leases) && onFailure == other.onFailure;
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return leases == null ? all.toString() : all + " " + leases;
  }
}
