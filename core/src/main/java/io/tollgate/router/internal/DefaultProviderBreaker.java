package io.tollgate.router.internal;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.tollgate.router.BreakerState;
import io.tollgate.router.BreakerTransition;
import io.tollgate.router.FailureKind;
import io.tollgate.router.OpenedBy;
import io.tollgate.router.ProviderBreaker;
import io.tollgate.router.TransitionReason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * One provider's breaker. A resilience4j {@link CircuitBreaker} holds the state (CLOSED, OPEN
 * until an instant, HALF_OPEN with one permitted call) on the injected clock; this class decides
 * the transitions, since neither "N consecutive failures within T" nor a fleet-wide episode is
 * something resilience4j's sliding windows express.
 *
 * <p>Callers' threads run the local rules under this object's lock, without I/O. The fleet's sync
 * thread asks {@link #nextExchange()} what to tell or ask the store, and {@link #apply}s the
 * answer; an answer about an episode the breaker has left meanwhile is dropped, the next exchange
 * starts from the new state.
 */
public final class DefaultProviderBreaker implements ProviderBreaker {

  /** What a breaker needs of the fleet around it. */
  interface Fleet {
    /** Breakers of this JVM alone. */
    Fleet NONE = new Fleet() {
      @Override
      public boolean coordinating() {
        return false;
      }

      @Override
      public void wake() {}
    };

    /** True while the store answers: a half-open breaker then waits to be elected to probe. */
    boolean coordinating();

    /** Asks for an exchange with the store now rather than at the next refresh. */
    void wake();
  }

  private final String name;
  private final BreakerSettings settings;
  private final Clock clock;
  private final CircuitBreaker circuit;
  private final FailureStreak streak;
  private final Fleet fleet;
  private final Consumer<BreakerTransition> events;
  // Transitions are queued in the order they happened (under this object's lock) and handed to
  // the listener outside it, one thread at a time, so listeners see them in order and may call back.
  private final Queue<BreakerTransition> unpublished = new ConcurrentLinkedQueue<>();
  private final Object publishing = new Object();

  // guarded by this
  private Episode episode; // null exactly while closed
  private Episode closedUnshared; // closed by this instance's probe; the store is still to be told
  private Instant probeOutSince; // this instance's probe call is out
  private boolean elected; // the fleet's probe lock is this instance's
  private Instant lastDemand; // a call was refused while half-open, waiting for the election

  DefaultProviderBreaker(String name, BreakerSettings settings, Fleet fleet,
      Consumer<BreakerTransition> events) {
    this.name = name;
    this.settings = settings;
    this.clock = settings.clock();
    this.fleet = fleet;
    this.events = events;
    this.streak = new FailureStreak(settings.config().failures(), settings.config().window());
    this.circuit = CircuitBreaker.of(name, CircuitBreakerConfig.custom()
        .clock(clock)
        .permittedNumberOfCallsInHalfOpenState(1)
        .writableStackTraceEnabled(false)
        .build());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean tryAcquirePermission() {
    if (circuit.getState() == CircuitBreaker.State.CLOSED) {
      return true;
    }
    List<BreakerTransition> happened = new ArrayList<>(2);
    boolean permitted = false;
    boolean firstDemand = false;
    synchronized (this) {
      Instant now = clock.instant();
      advance(now, happened);
      switch (circuit.getState()) {
        case CLOSED -> permitted = true;
        case HALF_OPEN -> {
          if (probeOutSince != null) {
            permitted = false;
          } else if (fleet.coordinating() && !elected) {
            firstDemand = lastDemand == null;
            lastDemand = now;
          } else if (circuit.tryAcquirePermission()) {
            probeOutSince = now;
            permitted = true;
          }
        }
        default -> permitted = false;
      }
    }
    publish(happened);
    if (firstDemand) {
      fleet.wake();
    }
    return permitted;
  }

  @Override
  public synchronized void releasePermission() {
    if (circuit.getState() == CircuitBreaker.State.HALF_OPEN && probeOutSince != null) {
      probeOutSince = null;
      circuit.releasePermission();
    }
  }

  @Override
  public void onSuccess(Duration latency) {
    Objects.requireNonNull(latency, "latency");
    if (circuit.getState() == CircuitBreaker.State.CLOSED && streak.isEmpty()) {
      return;
    }
    List<BreakerTransition> happened = new ArrayList<>(2);
    synchronized (this) {
      Instant now = clock.instant();
      advance(now, happened);
      switch (circuit.getState()) {
        case CLOSED -> streak.reset();
        case HALF_OPEN -> {
          if (probeOutSince != null) {
            close(now, TransitionReason.PROBE_SUCCEEDED, happened);
          }
        }
        default -> { } // a call let through before the breaker opened proves nothing now
      }
    }
    publishAndShare(happened);
  }

  @Override
  public void onFailure(FailureKind kind) {
    Objects.requireNonNull(kind, "kind");
    List<BreakerTransition> happened = new ArrayList<>(2);
    synchronized (this) {
      Instant now = clock.instant();
      advance(now, happened);
      switch (circuit.getState()) {
        case CLOSED -> {
          if (streak.fail(now)) {
            episode = new Episode(OpenedBy.LOCAL, 0, 1, now.plus(settings.openTime(1)));
            open(now, TransitionReason.FAILURES, happened);
          }
        }
        case HALF_OPEN -> {
          if (probeOutSince != null) {
            failProbe(now, TransitionReason.PROBE_FAILED, happened);
          }
        }
        default -> { } // a call let through before the breaker opened: it is open already
      }
    }
    publishAndShare(happened);
  }

  @Override
  public BreakerState state() {
    if (circuit.getState() == CircuitBreaker.State.CLOSED) {
      return BreakerState.CLOSED;
    }
    List<BreakerTransition> happened = new ArrayList<>(1);
    BreakerState state;
    synchronized (this) {
      advance(clock.instant(), happened);
      state = current();
    }
    publish(happened);
    return state;
  }

  @Override
  public synchronized Optional<OpenedBy> openedBy() {
    return episode == null ? Optional.empty() : Optional.of(episode.openedBy);
  }

  @Override
  public synchronized Optional<Instant> openUntil() {
    return episode == null ? Optional.empty() : Optional.of(episode.openUntil);
  }

  /** True while this instance holds the fleet's probe lock. */
  synchronized boolean elected() {
    return elected;
  }

  /** What to tell or ask the store next; the fleet's sync thread only. */
  Exchange nextExchange() {
    List<BreakerTransition> happened = new ArrayList<>(1);
    Exchange exchange;
    synchronized (this) {
      Instant now = clock.instant();
      advance(now, happened);
      if (closedUnshared != null) {
        exchange = Exchange.close(closedUnshared);
      } else if (episode != null && episode.generation == 0) {
        Duration remaining = Duration.between(now, episode.openUntil);
        exchange = Exchange.open(episode, remaining.isNegative() ? Duration.ZERO : remaining);
      } else if (episode != null && episode.attempt > episode.sharedAttempt) {
        exchange = Exchange.fail(episode, settings.openTime(episode.sharedAttempt + 1));
      } else {
        exchange = Exchange.sync(episode, wantsProbe(now));
      }
    }
    publish(happened);
    return exchange;
  }

  /** Applies the store's answer to {@code exchange}; the fleet's sync thread only. */
  void apply(Exchange exchange, SharedState shared) {
    List<BreakerTransition> happened = new ArrayList<>(1);
    synchronized (this) {
      Instant now = clock.instant();
      Episode asked = exchange.episode();
      switch (exchange.kind()) {
        case CLOSE -> {
          if (closedUnshared == asked) {
            closedUnshared = null;
          }
          if (episode == null) {
            follow(shared, now, happened);
          }
        }
        case OPEN -> {
          asked.generation = shared.generation();
          if (asked.over) {
            // closed here before the store heard of it: the fleet must hear of the close too
            closedUnshared = asked;
          } else if (episode == asked) {
            align(shared, now, happened);
          }
        }
        case FAIL -> {
          if (episode == asked) {
            align(shared, now, happened);
          }
        }
        case SYNC -> {
          if (episode == asked) {
            follow(shared, now, happened);
          }
        }
      }
    }
    publish(happened);
  }

  /** Time-driven transitions: the open time ends; a probe that never reported counts as failed. */
  private void advance(Instant now, List<BreakerTransition> happened) {
    CircuitBreaker.State state = circuit.getState();
    if (state == CircuitBreaker.State.OPEN && !now.isBefore(episode.openUntil)) {
      circuit.transitionToHalfOpenState();
      happened.add(transition(BreakerState.OPEN, BreakerState.HALF_OPEN,
          TransitionReason.OPEN_TIME_ENDED, now));
    } else if (state == CircuitBreaker.State.HALF_OPEN && probeOutSince != null
        && !now.isBefore(probeOutSince.plus(settings.probeTimeout()))) {
      failProbe(now, TransitionReason.PROBE_LOST, happened);
    }
  }

  private boolean wantsProbe(Instant now) {
    return circuit.getState() == CircuitBreaker.State.HALF_OPEN
        && (probeOutSince != null
            || lastDemand != null && !now.isAfter(lastDemand.plus(settings.probeLockTtl())));
  }

  /** Follows the fleet: its episode, its close, or who holds the probe lock. */
  private void follow(SharedState shared, Instant now, List<BreakerTransition> happened) {
    if (!shared.exists()) {
      if (episode != null && episode.generation != 0) {
        close(now, TransitionReason.FLEET_CLOSED, happened); // another instance's probe succeeded
      }
      return; // closed alike, or an episode the store has not heard of yet
    }
    if (episode != null && episode.generation == 0) {
      return; // opened here; the store hears of it first
    }
    if (episode == null || episode.generation != shared.generation()) {
      episode = new Episode(OpenedBy.FLEET, shared.generation(), shared.attempt(),
          now.plusMillis(shared.remainingMillis()));
      open(now, TransitionReason.FLEET_OPENED, happened);
      return;
    }
    if (episode.attempt == shared.attempt()) {
      elected = shared.probe() == SharedState.Prober.THIS_INSTANCE;
      return;
    }
    align(shared, now, happened);
  }

  /**
   * The store's view of this breaker's episode. The same attempt, or an earlier one (a failed probe
   * of this instance still to be told): keep the local open time. A later one: another instance's
   * probe failed, follow its open time.
   */
  private void align(SharedState shared, Instant now, List<BreakerTransition> happened) {
    episode.generation = shared.generation();
    if (shared.attempt() <= episode.attempt) {
      episode.sharedAttempt = shared.attempt();
      return;
    }
    episode.attempt = shared.attempt();
    episode.sharedAttempt = shared.attempt();
    episode.openedBy = OpenedBy.FLEET;
    episode.openUntil = now.plusMillis(shared.remainingMillis());
    open(now, TransitionReason.FLEET_OPENED, happened);
  }

  private void failProbe(Instant now, TransitionReason reason, List<BreakerTransition> happened) {
    episode.attempt++;
    episode.openedBy = OpenedBy.LOCAL;
    episode.openUntil = now.plus(settings.openTime(episode.attempt));
    open(now, reason, happened);
  }

  /** Opens until {@code episode.openUntil}. */
  private void open(Instant now, TransitionReason reason, List<BreakerTransition> happened) {
    BreakerState from = current();
    circuit.transitionToOpenStateUntil(episode.openUntil);
    forgetProbe();
    streak.reset();
    happened.add(transition(from, BreakerState.OPEN, reason, now));
  }

  private void close(Instant now, TransitionReason reason, List<BreakerTransition> happened) {
    BreakerState from = current();
    Episode closed = episode;
    episode = null;
    if (reason == TransitionReason.PROBE_SUCCEEDED) {
      closed.over = true;
      if (closed.generation != 0) {
        closedUnshared = closed;
      }
    }
    circuit.transitionToClosedState();
    forgetProbe();
    streak.reset();
    happened.add(transition(from, BreakerState.CLOSED, reason, now));
  }

  private void forgetProbe() {
    probeOutSince = null;
    elected = false;
    lastDemand = null;
  }

  private BreakerState current() {
    return switch (circuit.getState()) {
      case CLOSED -> BreakerState.CLOSED;
      case HALF_OPEN -> BreakerState.HALF_OPEN;
      default -> BreakerState.OPEN;
    };
  }

  private BreakerTransition transition(BreakerState from, BreakerState to, TransitionReason reason,
      Instant now) {
    Optional<Instant> until = to == BreakerState.CLOSED ? Optional.empty() : Optional.of(episode.openUntil);
    BreakerTransition transition = new BreakerTransition(name, from, to, reason, now, until);
    unpublished.add(transition); // under this object's lock, so in the order they happened
    return transition;
  }

  private void publishAndShare(List<BreakerTransition> happened) {
    if (!happened.isEmpty()) {
      publish(happened);
      fleet.wake();
    }
  }

  private void publish(List<BreakerTransition> happened) {
    if (happened.isEmpty() && unpublished.isEmpty()) {
      return;
    }
    synchronized (publishing) {
      BreakerTransition next;
      while ((next = unpublished.poll()) != null) {
        events.accept(next);
      }
    }
  }
}
