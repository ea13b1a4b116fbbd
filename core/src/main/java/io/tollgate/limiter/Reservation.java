package io.tollgate.limiter;

import java.util.Objects;

/**
 * What an admitted call holds until it is settled or released. It may be settled or released once;
 * every later attempt, and any after {@link RateLimiter}'s reservation TTL, changes nothing.
 */
public final class Reservation {

  private final String id;
  private final Subject subject;
  private final Limits limits;
  private final long requests;
  private final long tokens;
  private final boolean local;

  Reservation(String id, Subject subject, Limits limits, long requests, long tokens, boolean local) {
    this.id = Objects.requireNonNull(id, "id");
    this.subject = Objects.requireNonNull(subject, "subject");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.requests = requests;
    this.tokens = tokens;
    this.local = local;
  }

  /** Unique per reservation; names its record in the backend. */
  public String id() {
    return id;
  }

  public Subject subject() {
    return subject;
  }

  public Limits limits() {
    return limits;
  }

  public long requests() {
    return requests;
  }

  /** The tokens reserved: the estimate made before the call. */
  public long tokens() {
    return tokens;
  }

  /** True when this was taken from the local guard while the shared backend was unreachable. */
  public boolean local() {
    return local;
  }

  @Override
  public String toString() {
    return "Reservation[" + subject + " " + requests + " requests, " + tokens + " tokens]";
  }
}
