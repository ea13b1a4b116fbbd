package io.tollgate.limiter;

import io.tollgate.limiter.internal.LimiterStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A limiter that charges at most {@code maxTracked} subjects of one scope on their own at a time;
 * a subject beyond them is charged to the scope's {@link Subject#overflow overflow subject}, with
 * the limits it came with, so that a flood of new ids is limited as one id. The subjects of other
 * scopes, the pinned ones (tenants named in the configuration) and the overflow subject itself pass
 * untouched.
 *
 * <p>A subject is forgotten only once its state is full again, as far as this JVM has seen: the
 * time until full that the decisions report (plus the shared backend's margin), pushed out to the
 * longest a state can take to fill when a settle charges more than was reserved. Forgetting it then
 * changes nothing: its state is that of a fresh bucket, or the backend still holds it. So no
 * subject ever gets a fresh quota by being forgotten, and the backend holds at most
 * {@code maxTracked} subjects of the scope (plus the overflow) charged by this JVM; what a flood of
 * ids can spend is bounded by {@code maxTracked} times the limits per refill, plus the overflow's.
 * Room is made on the calling thread, a few entries at a time, never by walking the table.
 */
public final class BoundedSubjects extends ForwardingRateLimiter {

  public static final int DEFAULT_MAX_TRACKED = 100_000;
  /** Entries looked at, at most, to make room for one new subject. */
  static final int EVICTION_STEP = 8;
  /**
   * Kept past the reported time until full: the script keeps an idle state 1 s longer (for clock
   * steps), and a fresh entry must survive the reserve that will report its time.
   */
  static final long MARGIN_MICROS = 2_000_000;

  private final String scope;
  private final int maxTracked;
  private final Set<Subject> pinned;
  private final Subject overflow;
  private final MicroClock clock;
  private final Map<Subject, Entry> tracked = new ConcurrentHashMap<>();
  private final AtomicInteger size = new AtomicInteger();
  private final ReentrantLock evicting = new ReentrantLock();
  /** Where the last search for room stopped; guarded by {@link #evicting}. */
  private Iterator<Map.Entry<Subject, Entry>> cursor;

  private BoundedSubjects(Builder builder) {
    super(builder.delegate);
    this.scope = builder.scope;
    this.maxTracked = builder.maxTracked;
    this.pinned = Set.copyOf(builder.pinned);
    this.overflow = Subject.overflow(builder.scope);
    this.clock = builder.clock;
  }

  /** Bounds the subjects of {@code scope} that {@code delegate} charges. */
  public static Builder builder(RateLimiter delegate, String scope) {
    return new Builder(delegate, scope);
  }

  /** Subjects of the scope tracked now, at most {@code maxTracked}. */
  public int tracked() {
    return size.get();
  }

  /** The subject a call of {@code subject} is charged to: itself, or the scope's overflow subject. */
  Subject admit(Subject subject) {
    if (!subject.scope().equals(scope) || subject.isOverflow() || pinned.contains(subject)
        || tracked.containsKey(subject)) {
      return subject;
    }
    if (!takeRoom()) {
      return overflow;
    }
    Entry entry = new Entry(clock.nowMicros() + MARGIN_MICROS);
    if (tracked.putIfAbsent(subject, entry) != null) {
      size.decrementAndGet(); // another thread tracked it first
    }
    return subject;
  }

  private boolean takeRoom() {
    while (true) {
      int now = size.get();
      if (now < maxTracked) {
        if (size.compareAndSet(now, now + 1)) {
          return true;
        }
      } else if (!forgetSomeFull()) {
        return false;
      }
    }
  }

  /** Forgets the full subjects among the next few entries; false when none was, or another thread is at it. */
  private boolean forgetSomeFull() {
    if (!evicting.tryLock()) {
      return false;
    }
    try {
      long now = clock.nowMicros();
      boolean forgot = false;
      for (int i = 0; i < EVICTION_STEP; i++) {
        if (cursor == null || !cursor.hasNext()) {
          cursor = tracked.entrySet().iterator();
          if (!cursor.hasNext()) {
            break;
          }
        }
        Map.Entry<Subject, Entry> next = cursor.next();
        if (next.getValue().quietUntil <= now && tracked.remove(next.getKey(), next.getValue())) {
          size.decrementAndGet();
          forgot = true;
        }
      }
      return forgot;
    } finally {
      evicting.unlock();
    }
  }

  /** {@code subject}'s state will be full {@code untilFull} from now, unless known to be later. */
  private void fullIn(Subject subject, Duration untilFull) {
    fullIn(subject, untilFull.toNanos() / 1000);
  }

  private void fullIn(Subject subject, long untilFullMicros) {
    Entry entry = tracked.get(subject);
    if (entry != null) {
      entry.quietAtLeastUntil(clock.nowMicros() + untilFullMicros + MARGIN_MICROS);
    }
  }

  /** A settle beyond the reservation may have put the state into debt: the longest fill applies. */
  private void settled(Reservation reservation, long actualTokens) {
    if (actualTokens > reservation.tokens()) {
      fullIn(reservation.subject(), LimiterStep.longestUntilFullMicros(reservation.limits()));
    }
  }

  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens) {
    return reserve(subject, limits, requests, tokens, 0);
  }

  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens, long spend) {
    Subject charged = admit(subject);
    Decision decision = delegate().reserve(charged, limits, requests, tokens, spend);
    fullIn(charged, decision.resetAfter());
    return decision;
  }

  @Override
  public JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
    return reserveAll(charges, requests, tokens, 0);
  }

  @Override
  public JointDecision reserveAll(List<Charge> charges, long requests, long tokens, long spend) {
    List<Charge> admitted = new ArrayList<>(charges.size());
    for (Charge charge : charges) {
      Subject charged = admit(charge.subject());
      admitted.add(charged == charge.subject() ? charge : new Charge(charged, charge.limits()));
    }
    JointDecision decision = delegate().reserveAll(admitted, requests, tokens, spend);
    List<Decision> decisions = decision.decisions();
    for (int i = 0; i < decisions.size(); i++) {
      fullIn(admitted.get(i).subject(), decisions.get(i).resetAfter());
    }
    return decision;
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens) {
    boolean applied = delegate().settle(reservation, actualTokens);
    settled(reservation, actualTokens);
    return applied;
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens, long actualSpend) {
    boolean applied = delegate().settle(reservation, actualTokens, actualSpend);
    settled(reservation, actualTokens);
    return applied;
  }

  @Override
  public void settleLater(Reservation reservation, long actualTokens) {
    delegate().settleLater(reservation, actualTokens);
    settled(reservation, actualTokens);
  }

  @Override
  public void settleLater(Reservation reservation, long actualTokens, long actualSpend) {
    delegate().settleLater(reservation, actualTokens, actualSpend);
    settled(reservation, actualTokens);
  }

  @Override
  public void settleAllLater(JointDecision decision, long actualTokens, long actualSpend) {
    delegate().settleAllLater(decision, actualTokens, actualSpend);
    decision.reservations().forEach(reservation -> settled(reservation, actualTokens));
  }

  @Override
  public int settleEach(List<Settlement> settlements) {
    int applied = delegate().settleEach(settlements);
    settlements.forEach(s -> settled(s.reservation(), s.actualTokens()));
    return applied;
  }

  @Override
  public void settleAll(JointDecision decision, long actualTokens) {
    delegate().settleAll(decision, actualTokens);
    decision.reservations().forEach(reservation -> settled(reservation, actualTokens));
  }

  @Override
  public void settleAllLater(JointDecision decision, long actualTokens) {
    delegate().settleAllLater(decision, actualTokens);
    decision.reservations().forEach(reservation -> settled(reservation, actualTokens));
  }

  @Override
  public String toString() {
    return "BoundedSubjects[" + scope + ", " + size.get() + "/" + maxTracked + " tracked]";
  }

  private static final class Entry {
    /** When the subject's state is full again, in the clock's µs, as far as this JVM knows. */
    volatile long quietUntil;

    Entry(long quietUntil) {
      this.quietUntil = quietUntil;
    }

    synchronized void quietAtLeastUntil(long until) {
      if (until > quietUntil) {
        quietUntil = until;
      }
    }
  }

  /** Configures a {@link BoundedSubjects}; every setter rejects a bad value at once. */
  public static final class Builder {
    private final RateLimiter delegate;
    private final String scope;
    private int maxTracked = DEFAULT_MAX_TRACKED;
    private Set<Subject> pinned = Set.of();
    private MicroClock clock = MicroClock.system();

    private Builder(RateLimiter delegate, String scope) {
      this.delegate = Objects.requireNonNull(delegate, "delegate");
      this.scope = Subject.overflow(scope).scope(); // checks the scope
    }

    /** How many subjects of the scope are charged on their own at a time; default 100 000. */
    public Builder maxTracked(int maxTracked) {
      if (maxTracked <= 0) {
        throw new IllegalArgumentException("max-tracked must be > 0, was " + maxTracked);
      }
      this.maxTracked = maxTracked;
      return this;
    }

    /** Subjects always charged on their own, not counted: those the configuration names. */
    public Builder pinned(Set<Subject> pinned) {
      this.pinned = Set.copyOf(pinned);
      return this;
    }

    /** The clock that dates the decisions' times until full (tests pass a fake one). */
    public Builder clock(MicroClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public BoundedSubjects build() {
      return new BoundedSubjects(this);
    }
  }
}
