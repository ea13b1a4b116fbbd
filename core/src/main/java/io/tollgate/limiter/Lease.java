package io.tollgate.limiter;

import io.tollgate.limiter.internal.StepResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Requests and tokens this JVM took from a subject's shared bucket and serves decisions from. Its
 * counters are guarded by its {@link LeaseHolder}'s monitor. Once closed (expired, replaced, given
 * back), nothing is served from it and refunds of what it served go to the shared bucket.
 */
final class Lease {

  final LeaseHolder holder;
  /** Server time the lease was taken: refunds to a sliding window go back to that window. */
  final long takenAtMicros;
  final long expiresAtNanos;
  private final long[] sharedRemaining;
  private final Duration[] untilFull;
  long requests;
  long tokens;
  boolean open;

  Lease(LeaseHolder holder, LeaseBackend.Grant grant, long expiresAtNanos) {
    this.holder = holder;
    StepResult result = grant.result();
    this.takenAtMicros = result.nowMicros();
    this.expiresAtNanos = expiresAtNanos;
    this.requests = grant.requests();
    this.tokens = grant.tokens();
    int n = result.perLimit().length / 2;
    this.sharedRemaining = new long[n];
    this.untilFull = new Duration[n];
    for (int i = 0; i < n; i++) {
      sharedRemaining[i] = result.remaining(i);
      untilFull[i] = Duration.ofNanos(result.untilFullMicros(i) * 1000);
    }
    this.open = holdsAnything(holder);
  }

  private boolean holdsAnything(LeaseHolder holder) {
    return (holder.countsRequests && requests > 0) || (holder.countsTokens && tokens > 0);
  }

  /** True when this lease is open, unexpired and holds the cost of a call. */
  boolean covers(long requests, long tokens, long nowNanos) {
    return open && nowNanos - expiresAtNanos < 0
        && (!holder.countsRequests || this.requests >= requests)
        && (!holder.countsTokens || this.tokens >= tokens);
  }

  void take(long requests, long tokens) {
    this.requests -= requests;
    this.tokens -= tokens;
  }

  /**
   * The decision for a call served from this lease: what each limit has left is what the shared
   * bucket had when the lease was taken plus what the lease still holds.
   */
  Decision decision(Limits limits, long heldRequests, long heldTokens, Reservation reservation) {
    List<Limit> all = limits.all();
    List<LimitState> states = new ArrayList<>(all.size());
    for (int i = 0; i < all.size(); i++) {
      Limit limit = all.get(i);
      long held = limit.dimension() == Dimension.REQUESTS ? heldRequests : heldTokens;
      states.add(new LimitState(limit, sharedRemaining[i] + held, untilFull[i]));
    }
    return new Decision(Outcome.ALLOWED, states, Duration.ZERO, false, Optional.of(reservation));
  }
}
