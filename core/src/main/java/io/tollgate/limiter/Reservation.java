package io.tollgate.limiter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * What an admitted call holds until it is settled or released. It may be settled or released once;
 * every later attempt, and any after {@link RateLimiter}'s reservation TTL, changes nothing.
 */
public final class Reservation {

  private static final VarHandle USED;

  static {
    try {
      USED = MethodHandles.lookup().findVarHandle(Reservation.class, "used", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final String id;
  private final Subject subject;
  private final Limits limits;
  private final long requests;
  private final long tokens;
  private final long spend;
  private final boolean local;
  /** The lease this was served from, or null. */
  final Lease lease;
  /** When the shared limiter took it (server time, µs), for a reservation held without a record. */
  final long takenAtMicros;
  /**
   * For a reservation the backend keeps no record of (leased, or taken in Redis): until when
   * (System.nanoTime) it may be settled or released.
   */
  final long usableUntilNanos;
  @SuppressWarnings("unused") // through USED
  private volatile boolean used;

  /** A reservation the backend keeps a record of (in memory). */
  Reservation(String id, Subject subject, Limits limits, long requests, long tokens, long spend,
      boolean local) {
    this(id, subject, limits, requests, tokens, spend, local, null, 0, 0);
  }

  /** A reservation served from {@code lease}: this JVM alone knows of it. */
  Reservation(String id, Subject subject, Limits limits, long requests, long tokens, Lease lease,
      long usableUntilNanos) {
    this(id, subject, limits, requests, tokens, 0, false, Objects.requireNonNull(lease, "lease"), 0,
        usableUntilNanos);
  }

  /**
   * A reservation taken in Redis at {@code takenAtMicros} (server time): Redis keeps no record of
   * it, this object is the record.
   */
  Reservation(String id, Subject subject, Limits limits, long requests, long tokens, long spend,
      long takenAtMicros, long usableUntilNanos) {
    this(id, subject, limits, requests, tokens, spend, false, null, takenAtMicros, usableUntilNanos);
  }

  private Reservation(String id, Subject subject, Limits limits, long requests, long tokens,
      long spend, boolean local, Lease lease, long takenAtMicros, long usableUntilNanos) {
    this.id = Objects.requireNonNull(id, "id");
    this.subject = Objects.requireNonNull(subject, "subject");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.requests = requests;
    this.tokens = tokens;
    this.spend = spend;
    this.local = local;
    this.lease = lease;
    this.takenAtMicros = takenAtMicros;
    this.usableUntilNanos = usableUntilNanos;
  }

  /**
   * Marks a reservation held without a record settled or released; true only the first time, and
   * only within its TTL: the same exactly-once rule the in-memory backend's records give.
   */
  boolean useOnce(long nowNanos) {
    return nowNanos - usableUntilNanos < 0 && USED.compareAndSet(this, false, true);
  }

  /** Unique per reservation. */
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

  /** The spend reserved, in micro-dollars: the estimate priced before the call (0 when none). */
  public long spend() {
    return spend;
  }

  /** True when this was taken from the local guard while the shared backend was unreachable. */
  public boolean local() {
    return local;
  }

  /** True when this was served from a local lease rather than by a call to the shared backend. */
  public boolean leased() {
    return lease != null;
  }

  @Override
  public String toString() {
    return "Reservation[" + subject + " " + requests + " requests, " + tokens + " tokens"
        + (spend == 0 ? "" : ", " + spend + " µUSD") + "]";
  }
}
