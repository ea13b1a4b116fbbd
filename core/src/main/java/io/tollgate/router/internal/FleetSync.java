package io.tollgate.router.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The exchange between this instance's breakers and the store, on one daemon thread: every
 * refresh interval, and at once when a breaker asks ({@link #wake()}: it opened, its probe ended,
 * or it wants to be elected to probe). Callers' threads never wait for the store.
 *
 * <p>A store that fails (unreachable, timeout, CLUSTERDOWN) is left alone for {@link #RETRY_AFTER},
 * so a dead Redis costs one timeout per second on this thread, not one per breaker per refresh;
 * meanwhile {@link #coordinating()} is false and the breakers decide locally. The first failure and
 * the recovery of an episode are logged once each.
 */
final class FleetSync implements DefaultProviderBreaker.Fleet, AutoCloseable {

  static final Duration RETRY_AFTER = Duration.ofSeconds(1);
  /** Enough round trips for a breaker to tell what it knows and then read the state. */
  private static final int MAX_EXCHANGES_PER_BREAKER = 3;

  private static final System.Logger LOG = System.getLogger("io.tollgate.router.ProviderBreakers");

  private final BreakerStore store;
  private final Supplier<Collection<DefaultProviderBreaker>> breakers;
  private final ScheduledExecutorService thread;
  private final AtomicBoolean woken = new AtomicBoolean();
  private volatile boolean reachable = true;
  private long retryAtNanos; // the sync thread's only

  FleetSync(BreakerStore store, Duration refreshInterval,
      Supplier<Collection<DefaultProviderBreaker>> breakers) {
    this.store = store;
    this.breakers = breakers;
    this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread t = new Thread(task, "tollgate-breakers");
      t.setDaemon(true);
      return t;
    });
    long millis = refreshInterval.toMillis();
    thread.scheduleWithFixedDelay(this::exchangeAll, millis, millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public boolean coordinating() {
    return reachable;
  }

  @Override
  public void wake() {
    if (woken.compareAndSet(false, true)) {
      try {
        thread.execute(() -> {
          woken.set(false);
          exchangeAll();
        });
      } catch (RejectedExecutionException closed) {
        woken.set(false);
      }
    }
  }

  private void exchangeAll() {
    if (!reachable && System.nanoTime() - retryAtNanos < 0) {
      return;
    }
    try {
      for (DefaultProviderBreaker breaker : breakers.get()) {
        if (!exchange(breaker)) {
          return; // one timeout per round is enough
        }
      }
    } catch (RuntimeException e) {
      // a bug here must not end the periodic task, which would leave the fleet unshared unnoticed
      LOG.log(Level.ERROR, "circuit breaker state exchange failed", e);
    }
  }

  private boolean exchange(DefaultProviderBreaker breaker) {
    for (int i = 0; i < MAX_EXCHANGES_PER_BREAKER; i++) {
      Exchange exchange = breaker.nextExchange();
      SharedState shared;
      try {
        shared = exchange.send(store, breaker.name());
      } catch (RuntimeException e) {
        unreachable(e);
        return false;
      }
      answered();
      breaker.apply(exchange, shared);
      if (exchange.kind() == Exchange.Kind.SYNC) {
        break;
      }
    }
    return true;
  }

  private void unreachable(RuntimeException e) {
    retryAtNanos = System.nanoTime() + RETRY_AFTER.toNanos();
    if (reachable) {
      reachable = false;
      LOG.log(Level.WARNING, "Redis does not answer for circuit breaker state (" + e
          + "); breakers decide on their own until it does");
    }
    LOG.log(Level.DEBUG, "breaker state exchange failed", e);
  }

  private void answered() {
    if (!reachable) {
      reachable = true;
      LOG.log(Level.INFO, "Redis answers again; circuit breaker state is shared again");
    }
  }

  /** Stops the thread, then lets go of probe locks held here so that another instance can probe. */
  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!reachable) {
      return;
    }
    for (DefaultProviderBreaker breaker : breakers.get()) {
      if (breaker.elected()) {
        try {
          store.releaseProbe(breaker.name());
        } catch (RuntimeException e) {
          return; // the lock expires on its own
        }
      }
    }
  }
}
