package io.tollgate.limiter;

import io.tollgate.limiter.internal.Outcomes;
import io.tollgate.limiter.internal.ReservationIds;
import io.tollgate.redis.RedisFailures;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One subject's lease in this JVM, with the demand it saw. Calls are served from the lease while it
 * holds their cost; when it does not, one thread takes the next lease (giving back what the last
 * one did not spend, in the same script call) while the others wait for it, so that a hot subject
 * costs Redis one call per lease, not one per decision.
 */
final class LeaseHolder {

  /** A waiting caller gives up after this long; the Redis client's own timeout comes first. */
  private static final long MAX_WAIT_SECONDS = 10;

  final Subject subject;
  final Limits limits;
  final LeasePolicy policy;
  final boolean countsRequests;
  final boolean countsTokens;
  private final LocalLeases leases;

  // guarded by this
  private Lease lease;
  private Refill refill;
  private long askedRequests;
  private long askedTokens;
  private long sinceNanos;
  private boolean dropped;

  LeaseHolder(Subject subject, Limits limits, LocalLeases leases) {
    this.subject = subject;
    this.limits = limits;
    this.policy = limits.leases().orElseThrow();
    this.countsRequests = limits.capacity(Dimension.REQUESTS) >= 0;
    this.countsTokens = limits.capacity(Dimension.TOKENS) >= 0;
    this.leases = leases;
    this.sinceNanos = System.nanoTime();
  }

  /** The decision, or null when this holder was dropped meanwhile (ask a fresh one). */
  Decision reserve(long requests, long tokens) {
    boolean counted = false;
    while (true) {
      Refill waitFor = null;
      Refill mine = null;
      Lease ending = null;
      long giveRequests = 0;
      long giveTokens = 0;
      LeaseSizing.Want want = null;
      Lease servedFrom = null;
      long heldRequests = 0;
      long heldTokens = 0;
      long now = System.nanoTime();
      synchronized (this) {
        if (dropped) {
          return null;
        }
        if (!counted) {
          askedRequests += requests;
          askedTokens += tokens;
          counted = true;
        }
        Lease current = lease;
        if (current != null && current.covers(requests, tokens, now)) {
          current.take(requests, tokens);
          servedFrom = current;
          heldRequests = current.requests;
          heldTokens = current.tokens;
        } else if (refill != null) {
          waitFor = refill;
        } else {
          mine = new Refill();
          refill = mine;
          if (current != null) {
            ending = current;
            current.open = false;
            lease = null;
            giveRequests = countsRequests ? current.requests : 0;
            giveTokens = countsTokens ? current.tokens : 0;
          }
          want = LeaseSizing.want(policy, limits, askedRequests, askedTokens, now - sinceNanos);
          askedRequests = 0;
          askedTokens = 0;
          sinceNanos = now;
        }
      }
      if (servedFrom != null) {
        Reservation reservation = new Reservation(ReservationIds.next(), subject, limits, requests,
            tokens, servedFrom, now + leases.reservationTtlNanos());
        return servedFrom.decision(limits, heldRequests, heldTokens, reservation);
      }
      if (waitFor != null) {
        waitFor.await();
        continue;
      }
      return takeLease(mine, requests, tokens, want, ending, giveRequests, giveTokens);
    }
  }

  private Decision takeLease(Refill mine, long requests, long tokens, LeaseSizing.Want want,
      Lease ending, long giveRequests, long giveTokens) {
    LeaseBackend.Grant grant;
    try {
      grant = leases.backend().lease(subject, limits, requests, tokens, want.requests(),
          want.tokens(), giveRequests, giveTokens, ending == null ? 0 : ending.takenAtMicros);
    } catch (RuntimeException e) {
      synchronized (this) {
        refill = null;
      }
      mine.fail(e);
      throw e;
    }
    if (!grant.allowed()) {
      synchronized (this) {
        refill = null;
      }
      mine.done();
      return Outcomes.decision(limits, grant.result(), false, null);
    }
    long now = System.nanoTime();
    Lease taken = new Lease(this, grant, now + policy.ttl().toNanos());
    synchronized (this) {
      if (taken.open) {
        lease = taken;
      }
      refill = null;
    }
    mine.done();
    if (taken.open) {
      leases.endLater(taken);
    }
    Reservation reservation = new Reservation(ReservationIds.next(), subject, limits, requests,
        tokens, taken, now + leases.reservationTtlNanos());
    return taken.decision(limits, grant.requests(), grant.tokens(), reservation);
  }

  /**
   * Closes {@code ending} if it is still this holder's lease, returning what it did not spend as
   * {requests, tokens}, or null when it was closed already.
   */
  synchronized long[] close(Lease ending) {
    if (lease != ending || !ending.open) {
      return null;
    }
    ending.open = false;
    lease = null;
    return new long[] {countsRequests ? ending.requests : 0, countsTokens ? ending.tokens : 0};
  }

  synchronized long leasedRequests() {
    return lease == null || !lease.open ? 0 : lease.requests;
  }

  /** The current lease, if any, for close-all. */
  synchronized Lease current() {
    return lease;
  }

  /** Drops this holder when it holds nothing and saw no call for {@code idleNanos}. */
  synchronized boolean dropIfIdle(long nowNanos, long idleNanos) {
    if (lease == null && refill == null && nowNanos - sinceNanos > idleNanos
        && askedRequests == 0 && askedTokens == 0) {
      dropped = true;
    }
    return dropped;
  }

  /**
   * Gives back a leased reservation's refund ({@code requests}, {@code tokens} negative) or takes
   * its overage (positive) from its lease while that is open; returns what the shared bucket must
   * still be charged or refunded, {requests, tokens}.
   */
  long[] adjust(Lease from, long requests, long tokens) {
    long toRequests = countsRequests ? requests : 0;
    long toTokens = countsTokens ? tokens : 0;
    synchronized (this) {
      if (from.open) {
        toRequests = settleInto(from, true, toRequests);
        toTokens = settleInto(from, false, toTokens);
      }
    }
    return new long[] {toRequests, toTokens};
  }

  /** Moves {@code delta} into the lease's counter; returns the part the lease could not take. */
  private static long settleInto(Lease lease, boolean requests, long delta) {
    long held = requests ? lease.requests : lease.tokens;
    long left;
    if (delta <= 0) {
      held -= delta; // a refund stays in the lease, to serve the next calls
      left = 0;
    } else {
      long taken = Math.min(delta, held); // an overage is paid from the lease first
      held -= taken;
      left = delta - taken;
    }
    if (requests) {
      lease.requests = held;
    } else {
      lease.tokens = held;
    }
    return left;
  }

  /** A lease being taken by one thread; the others wait for it to end. */
  private static final class Refill {
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile RuntimeException failure;

    void done() {
      finished.countDown();
    }

    void fail(RuntimeException e) {
      failure = e;
      finished.countDown();
    }

    void await() {
      try {
        if (!finished.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS)) {
          throw RedisFailures.failed("no lease within " + MAX_WAIT_SECONDS + " s", null);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw RedisFailures.failed("interrupted while waiting for a lease", e);
      }
      RuntimeException e = failure;
      if (e != null) {
        throw RedisFailures.failed("taking a lease failed: " + e.getMessage(), e);
      }
    }
  }
}
