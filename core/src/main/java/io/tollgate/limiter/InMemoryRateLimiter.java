package io.tollgate.limiter;

import io.tollgate.limiter.internal.LimiterStep;
import io.tollgate.limiter.internal.Outcomes;
import io.tollgate.limiter.internal.ReservationIds;
import io.tollgate.limiter.internal.StepResult;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Limits for one JVM, with exactly the semantics of the Redis scripts (it runs their Java twin,
 * {@link LimiterStep}): the default when no Redis is configured, and the local guard while Redis
 * is unreachable. Idle subjects are dropped once they would be full anyway: each reserve looks at
 * the next {@value #SWEEP_STEP} subjects in turn, so the table is swept a little at a time on the
 * calling thread, never walked whole. How many subjects it holds is up to the caller ({@link
 * BoundedSubjects} bounds the tenants).
 */
final class InMemoryRateLimiter implements RateLimiter {

  /** Subjects looked at by each reserve for dropping. */
  static final int SWEEP_STEP = 2;

  private final MicroClock clock;
  private final long reservationTtlMicros;
  private final boolean local;
  private final Map<Subject, Cell> cells = new ConcurrentHashMap<>();
  private final ReentrantLock sweeping = new ReentrantLock();
  /** Where the sweep stopped; guarded by {@link #sweeping}. */
  private Iterator<Map.Entry<Subject, Cell>> cursor;

  private InMemoryRateLimiter(MicroClock clock, Duration reservationTtl, boolean local) {
    this.clock = Objects.requireNonNull(clock, "clock");
    if (reservationTtl.isNegative() || reservationTtl.isZero()) {
      throw new IllegalArgumentException("reservation TTL must be > 0, was " + reservationTtl);
    }
    this.reservationTtlMicros = reservationTtl.toNanos() / 1000;
    this.local = local;
  }

  static InMemoryRateLimiter create() {
    return create(MicroClock.system(), RateLimiter.DEFAULT_RESERVATION_TTL);
  }

  /** What {@link RateLimiter#inMemory} makes. */
  static InMemoryRateLimiter create(MicroClock clock, Duration reservationTtl) {
    return new InMemoryRateLimiter(clock, reservationTtl, false);
  }

  /** The guard used while the shared backend is down: its reservations are marked local. */
  static InMemoryRateLimiter localGuard(MicroClock clock, Duration reservationTtl) {
    return new InMemoryRateLimiter(clock, reservationTtl, true);
  }

  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens) {
    return reserve(subject, limits, requests, tokens, 0);
  }

  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens, long spend) {
    Outcomes.checkCost(requests, tokens);
    Outcomes.checkSpend(spend);
    if (Outcomes.neverFits(limits, requests, tokens, spend)) {
      return Outcomes.neverFitsDecision(limits, false);
    }
    sweepAFew();
    return onLiveCell(subject, cell -> reserve(cell, subject, limits, requests, tokens, spend));
  }

  /**
   * Runs {@code step} holding {@code subject}'s cell, made if absent; a cell the sweep dropped
   * meanwhile must not be charged, so its caller takes the new one.
   */
  private <T> T onLiveCell(Subject subject, Function<Cell, T> step) {
    while (true) {
      Cell cell = cells.computeIfAbsent(subject, s -> new Cell());
      synchronized (cell) {
        if (!cell.dropped) {
          return step.apply(cell);
        }
      }
    }
  }

  private Decision reserve(Cell cell, Subject subject, Limits limits, long requests, long tokens,
      long spend) {
    long now = clock.nowMicros();
    StepResult result = LimiterStep.reserve(cell.state, limits, requests, tokens, spend, now);
    Reservation reservation = null;
    if (result.outcome() == 1) {
      reservation = new Reservation(ReservationIds.next(), subject, limits, requests, tokens, spend,
          local);
      cell.records.put(reservation.id(),
          new Held(requests, tokens, spend, result.nowMicros(), now + reservationTtlMicros));
      cell.keepUntil(result, limits, now);
    }
    return Outcomes.decision(limits, result, false, reservation);
  }

  @Override
  public void lowerRoom(Subject subject, Limits limits, long requestsRoom, long tokensRoom) {
    onLiveCell(subject, cell -> {
      long now = clock.nowMicros();
      cell.keepUntil(LimiterStep.lower(cell.state, limits, requestsRoom, tokensRoom, now),
          limits, now);
      return null;
    });
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens) {
    return settle(reservation, actualTokens, reservation.spend());
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens, long actualSpend) {
    Settlement checked = new Settlement(reservation, actualTokens, actualSpend);
    return adjust(reservation, true, checked.actualTokens(), checked.actualSpend());
  }

  @Override
  public boolean release(Reservation reservation) {
    return adjust(reservation, false, 0, 0);
  }

  private boolean adjust(Reservation reservation, boolean settle, long actualTokens,
      long actualSpend) {
    Cell cell = cells.get(reservation.subject());
    if (cell == null) {
      return false;
    }
    synchronized (cell) {
      long now = clock.nowMicros();
      Held held = cell.records.remove(reservation.id());
      if (held == null || held.expiresAt <= now) {
        return false;
      }
      long deltaRequests = settle ? 0 : -held.requests;
      long deltaTokens = settle ? actualTokens - held.tokens : -held.tokens;
      long deltaSpend = settle ? actualSpend - held.spend : -held.spend;
      StepResult result = LimiterStep.adjust(cell.state, reservation.limits(), deltaRequests,
          deltaTokens, deltaSpend, held.reservedAt, now);
      cell.keepUntil(result, reservation.limits(), now);
      return true;
    }
  }

  /** Number of subjects currently held in memory. */
  int size() {
    return cells.size();
  }

  /** Drops the next few subjects if they are full and hold no reservation; skipped while another thread sweeps. */
  private void sweepAFew() {
    if (!sweeping.tryLock()) {
      return;
    }
    try {
      long now = clock.nowMicros();
      for (int i = 0; i < SWEEP_STEP; i++) {
        if (cursor == null || !cursor.hasNext()) {
          cursor = cells.entrySet().iterator();
          if (!cursor.hasNext()) {
            return;
          }
        }
        Map.Entry<Subject, Cell> next = cursor.next();
        Cell cell = next.getValue();
        synchronized (cell) {
          cell.records.values().removeIf(held -> held.expiresAt <= now);
          if (cell.idleUntil <= now && cell.records.isEmpty()) {
            // a thread that fetched this cell before its removal must not charge it: it retries
            cell.dropped = true;
            cells.remove(next.getKey(), cell);
          }
        }
      }
    } finally {
      sweeping.unlock();
    }
  }

  private static final class Cell {
    final Map<String, Long> state = new HashMap<>();
    final Map<String, Held> records = new HashMap<>();
    long idleUntil;
    boolean dropped;

    /** Never earlier than before: a step on one model's limits says nothing of another's. */
    void keepUntil(StepResult result, Limits limits, long now) {
      idleUntil = Math.max(idleUntil, now + LimiterStep.untilFullMicros(result, limits.all().size()));
    }
  }

  private record Held(long requests, long tokens, long spend, long reservedAt, long expiresAt) {}
}
