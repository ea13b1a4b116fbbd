package io.tollgate.limiter;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every limit that applies to one subject; a call is admitted only when all of them have room,
 * and then all are charged together.
 */
public final class Limits {

  private final List<Limit> all;

  private Limits(List<Limit> all) {
    if (all.isEmpty()) {
      throw new IllegalArgumentException("at least one limit is needed");
    }
    Set<String> seen = new HashSet<>();
    for (Limit limit : all) {
      String slot = limit.dimension() + "/" + limit.window() + "/" + limit.algorithm();
      if (!seen.add(slot)) {
        throw new IllegalArgumentException("two limits on " + limit.dimension().label()
            + " per " + limit.window() + ": " + all);
      }
    }
    this.all = List.copyOf(all);
  }

  public static Limits of(Limit... limits) {
    return new Limits(List.of(limits));
  }

  public static Limits of(List<Limit> limits) {
    return new Limits(new ArrayList<>(limits));
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

  /** These limits with each capacity multiplied by {@code share}: one JVM's local part. */
  public Limits scaled(double share) {
    List<Limit> scaled = new ArrayList<>(all.size());
    for (Limit limit : all) {
      scaled.add(limit.scaled(share));
    }
    return new Limits(scaled);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Limits other && all.equals(other.all);
  }

  @Override
  public int hashCode() {
    return all.hashCode();
  }

  @Override
  public String toString() {
    return all.toString();
  }
}
