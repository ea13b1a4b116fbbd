package io.tollgate.limiter;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The settles a shared limiter was handed by {@link RateLimiter#settleLater}, applied by one daemon
 * thread, {@code tollgate-settle}, up to {@link #MAX_BATCH} at a time, so that a call does not wait
 * for its settle's round trip. The thread starts with the first settle.
 *
 * <p>Woken by a settle, the thread lingers {@link #DEFAULT_LINGER} for others to join the same
 * round trip (less when a batch is full or the queue closes): one round trip, and one wake-up of
 * the thread, for the settles of that time instead of one each; a call's thread wakes the settler
 * only when it is idle. Settles reach Redis that much later, which no limit can tell.
 *
 * <p>{@link #offer} refuses a settle when {@link #CAPACITY} are waiting (Redis slow or unreachable)
 * or the queue is closed: the caller then settles on its own thread, as without a queue, so a
 * settle is never lost for want of room and never waits for room. {@link #close} waits until what
 * was handed over is applied, at most its bound; what is left then is dropped and logged, its
 * estimates charged, as for a settle that cannot reach Redis.
 *
 * <p>{@link ResilientRateLimiter} alone makes and closes one (see there why).
 */
final class SettleQueue {

  static final int CAPACITY = 1024;
  static final int MAX_BATCH = 64;
  static final Duration DEFAULT_DRAIN_ON_CLOSE = ResilienceConfig.DEFAULT_DRAIN_ON_CLOSE;
  /** How long a batch waits for more settles before it is sent. */
  static final Duration DEFAULT_LINGER = Duration.ofMillis(1);

  private static final System.Logger LOG = System.getLogger(SettleQueue.class.getName());

  private final Consumer<List<Settlement>> apply;
  private final Duration drainOnClose;
  private final long lingerNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private final Condition progressed = lock.newCondition();
  // guarded by lock
  private final ArrayDeque<Settlement> waiting = new ArrayDeque<>();
  private long handedOver;
  /** Applied, failed or dropped: every settle handed over is counted here once. */
  private long finished;
  private boolean closed;
  private Thread thread;
  /** The settler waits for a first settle (not lingering, not applying): an offer must wake it. */
  private boolean idle;
  // the settler thread's own
  private boolean failing;

  /** @param apply settles a batch; an exception drops the batch (logged once per episode) */
  SettleQueue(Consumer<List<Settlement>> apply, Duration drainOnClose) {
    this(apply, drainOnClose, DEFAULT_LINGER);
  }

  SettleQueue(Consumer<List<Settlement>> apply, Duration drainOnClose, Duration linger) {
    this.apply = apply;
    if (drainOnClose.isNegative() || linger.isNegative()) {
      throw new IllegalArgumentException("drain-on-close and linger must be >= 0, were "
          + drainOnClose + " and " + linger);
    }
    this.drainOnClose = drainOnClose;
    this.lingerNanos = linger.toNanos();
  }

  /** Queues {@code settlement}; false when full or closed: the caller settles it itself. */
  boolean offer(Settlement settlement) {
    lock.lock();
    try {
      if (closed || waiting.size() >= CAPACITY) {
        return false;
      }
      if (thread == null) {
        thread = new Thread(this::run, "tollgate-settle");
        thread.setDaemon(true);
        // Tollgate's loader, not that of the thread settling first: a web app's request thread
        // would leave this thread holding the app's loader for as long as it lives (the app never
        // unloaded, and Tomcat reporting at undeploy a thread of the app's left running).
        thread.setContextClassLoader(SettleQueue.class.getClassLoader());
        thread.start();
      }
      waiting.addLast(settlement);
      handedOver++;
      if (idle || waiting.size() == MAX_BATCH) {
        arrived.signal(); // lingering with room in the batch: the settler wakes on its own
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Waits until every settle offered before is finished (applied, or given up on). */
  boolean awaitSettled(Duration timeout) {
    lock.lock();
    try {
      return awaitFinished(handedOver, timeout.toNanos());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Refuses further settles and waits, at most the drain bound, until those queued are applied;
   * drops (and logs) what is still waiting then.
   */
  void close() {
    lock.lock();
    try {
      closed = true;
      arrived.signal(); // an idle settler thread ends
      if (!awaitFinished(handedOver, drainOnClose.toNanos()) && !waiting.isEmpty()) {
        LOG.log(Level.WARNING, "{0} settles not sent to Redis within {1} ms of closing: their"
            + " estimates stay charged until their reservations expire", waiting.size(),
            drainOnClose.toMillis());
        finished += waiting.size();
        waiting.clear();
        progressed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Holding the lock. */
  private boolean awaitFinished(long target, long nanos) {
    try {
      while (finished < target) {
        if (nanos <= 0) {
          return false;
        }
        nanos = progressed.awaitNanos(nanos);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void run() {
    List<Settlement> batch = new ArrayList<>(MAX_BATCH);
    while (true) {
      lock.lock();
      try {
        while (waiting.isEmpty()) {
          if (closed) {
            return;
          }
          idle = true;
          arrived.awaitUninterruptibly();
          idle = false;
        }
        linger();
        while (batch.size() < MAX_BATCH && !waiting.isEmpty()) {
          batch.add(waiting.pollFirst());
        }
      } finally {
        lock.unlock();
      }
      applyLogged(batch);
      lock.lock();
      try {
        finished += batch.size();
        progressed.signalAll();
      } finally {
        lock.unlock();
      }
      batch.clear();
    }
  }

  /** Holding the lock: lets more settles join the batch, until it is full or the queue closes. */
  private void linger() {
    long nanos = lingerNanos;
    try {
      while (nanos > 0 && waiting.size() < MAX_BATCH && !closed) {
        nanos = arrived.awaitNanos(nanos);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // not ours to interrupt: send what there is
    }
  }

  private void applyLogged(List<Settlement> batch) {
    try {
      apply.accept(batch);
      if (failing) {
        failing = false;
        LOG.log(Level.INFO, "settles reach Redis again");
      }
    } catch (RuntimeException | LinkageError e) {
      if (!failing) {
        failing = true;
        LOG.log(Level.WARNING, "settles cannot reach Redis; dropped until it answers (their"
            + " estimates stay charged until their reservations expire)", e);
      } else {
        LOG.log(Level.DEBUG, "settles dropped", e);
      }
    }
  }
}
