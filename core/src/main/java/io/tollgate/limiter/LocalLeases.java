package io.tollgate.limiter;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The leases of one {@link RedisRateLimiter}: a {@link LeaseHolder} per leased subject, and one
 * daemon thread that gives back each lease's unspent part when it expires, and forgets subjects
 * that went quiet. What is still leased goes back when the limiter closes or the JVM shuts down;
 * a JVM killed outright loses its leases, at most one TTL of refill each (see {@link LeaseSizing}).
 */
final class LocalLeases implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(LocalLeases.class.getName());
  /** A subject with no lease and no call for this long is forgotten (its demand starts afresh). */
  private static final Duration IDLE = Duration.ofSeconds(5);

  private record Key(Subject subject, Limits limits) {}

  private final LeaseBackend backend;
  private final long reservationTtlNanos;
  private final Map<Key, LeaseHolder> holders = new ConcurrentHashMap<>();
  private final Thread shutdownHook = new Thread(this::giveBackAll, "tollgate-leases-shutdown");
  private volatile ScheduledExecutorService scheduler;
  private boolean closed;

  LocalLeases(LeaseBackend backend, Duration reservationTtl) {
    this.backend = backend;
    this.reservationTtlNanos = reservationTtl.toNanos();
  }

  LeaseBackend backend() {
    return backend;
  }

  long reservationTtlNanos() {
    return reservationTtlNanos;
  }

  Decision reserve(Subject subject, Limits limits, long requests, long tokens) {
    Key key = new Key(subject, limits);
    while (true) {
      LeaseHolder holder = holders.computeIfAbsent(key, k -> new LeaseHolder(subject, limits, this));
      Decision decision = holder.reserve(requests, tokens);
      if (decision != null) {
        return decision;
      }
      holders.remove(key, holder); // dropped while we looked: ask a fresh one
    }
  }

  /**
   * Settles a reservation served from a lease: a refund goes back into its lease while that is
   * open (else to the shared bucket); usage beyond the estimate is paid from the lease first and
   * the rest charged to the shared bucket, which may go into debt, as without leases.
   */
  boolean settle(Reservation reservation, long actualTokens) {
    if (!reservation.useOnce(System.nanoTime())) {
      return false;
    }
    adjust(reservation, 0, actualTokens - reservation.tokens());
    return true;
  }

  /** Gives back all a leased reservation took: to its lease while open, else to the bucket. */
  boolean release(Reservation reservation) {
    if (!reservation.useOnce(System.nanoTime())) {
      return false;
    }
    adjust(reservation, -reservation.requests(), -reservation.tokens());
    return true;
  }

  private void adjust(Reservation reservation, long requests, long tokens) {
    if (requests == 0 && tokens == 0) {
      return;
    }
    Lease lease = reservation.lease;
    long[] rest = lease.holder.adjust(lease, requests, tokens);
    if (rest[0] != 0 || rest[1] != 0) {
      backend.adjust(reservation.subject(), reservation.limits(), rest[0], rest[1],
          lease.takenAtMicros);
    }
  }

  /** Requests this JVM holds leased for {@code subject} now (for tests and diagnostics). */
  long leasedRequests(Subject subject, Limits limits) {
    LeaseHolder holder = holders.get(new Key(subject, limits));
    return holder == null ? 0 : holder.leasedRequests();
  }

  /** Gives {@code lease}'s unspent part back when it expires, unless it ended before. */
  void endLater(Lease lease) {
    ScheduledExecutorService s = scheduler();
    if (s == null) {
      end(lease); // taken while the limiter was closing: it goes back at once
      return;
    }
    long delay = lease.expiresAtNanos - System.nanoTime();
    s.schedule(() -> end(lease), Math.max(0, delay), TimeUnit.NANOSECONDS);
  }

  private void end(Lease lease) {
    long[] unspent = lease.holder.close(lease);
    if (unspent == null || (unspent[0] == 0 && unspent[1] == 0)) {
      return;
    }
    try {
      LeaseHolder holder = lease.holder;
      backend.adjust(holder.subject, holder.limits, -unspent[0], -unspent[1], lease.takenAtMicros);
    } catch (RuntimeException e) {
      // lost: the limit is under-used by what the lease held, never over-used
      LOG.log(Level.DEBUG, "giving back a lease failed", e);
    }
  }

  /** Ends every lease now; they go back to the shared bucket. */
  void giveBackAll() {
    for (LeaseHolder holder : holders.values()) {
      Lease lease = holder.current();
      if (lease != null) {
        end(lease);
      }
    }
  }

  private void forgetIdle() {
    long now = System.nanoTime();
    holders.forEach((key, holder) -> {
      if (holder.dropIfIdle(now, IDLE.toNanos())) {
        holders.remove(key, holder);
      }
    });
  }

  /** The expiry thread, started with the first lease; null once this is closed. */
  private ScheduledExecutorService scheduler() {
    ScheduledExecutorService s = scheduler;
    if (s != null) {
      return s;
    }
    synchronized (this) {
      if (scheduler == null && !closed) {
        ScheduledExecutorService created = Executors.newSingleThreadScheduledExecutor(task -> {
          Thread thread = new Thread(task, "tollgate-leases");
          thread.setDaemon(true);
          // not the loader of the thread taking the first lease: see SettleQueue's thread
          thread.setContextClassLoader(LocalLeases.class.getClassLoader());
          return thread;
        });
        created.scheduleWithFixedDelay(this::forgetIdle, IDLE.toMillis(), IDLE.toMillis(),
            TimeUnit.MILLISECONDS);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        scheduler = created;
      }
      return scheduler; // null once closed
    }
  }

  /** Gives every lease back and stops the expiry thread. */
  @Override
  public void close() {
    ScheduledExecutorService s;
    synchronized (this) {
      closed = true;
      s = scheduler;
      scheduler = null;
    }
    giveBackAll();
    if (s != null) {
      s.shutdownNow();
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running or has run: nothing left to remove
      }
    }
  }
}
