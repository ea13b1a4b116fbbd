package io.tollgate.spring.boot.client;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Failures of Tollgate's own code in the Spring clients' hooks (the gate, or a limiter bean of the
 * app's, throwing). The call then goes on as if Tollgate were absent, as with the agent's hooks:
 * sent unchanged when nothing was sent yet, else answered with what the client already had. Every
 * failure is counted; each kind (where, and the exception's class) is logged at most once per
 * {@link #LOG_INTERVAL}, so a broken limiter does not flood the app's log.
 */
public final class InternalFailures {

  /** The shortest time between two log lines of one kind. */
  public static final Duration LOG_INTERVAL = Duration.ofMinutes(1);

  private static final Log LOG = LogFactory.getLog(InternalFailures.class);
  private static final InternalFailures SHARED = new InternalFailures(Clock.systemUTC(), LOG::warn);

  private final Clock clock;
  private final BiConsumer<String, Throwable> warn;
  private final Map<String, Kind> kinds = new ConcurrentHashMap<>();

  InternalFailures(Clock clock, BiConsumer<String, Throwable> warn) {
    this.clock = clock;
    this.warn = warn;
  }

  /** The one the hooks record into. */
  public static InternalFailures shared() {
    return SHARED;
  }

  /** Counts a failure at {@code where} ({@code rest-client}, {@code web-client}); logs it if due. */
  void record(String where, Throwable error) {
    Kind kind = kinds.computeIfAbsent(where + " " + error.getClass().getName(), k -> new Kind(where));
    kind.count.incrementAndGet();
    long now = clock.millis();
    long last = kind.loggedAt.get();
    if ((last == Kind.NEVER || now - last >= LOG_INTERVAL.toMillis())
        && kind.loggedAt.compareAndSet(last, now)) {
      warn.accept("Tollgate: internal failure in " + where + " (the call proceeds as if Tollgate were "
          + "absent; logged at most once a minute for this kind, " + kind.count.get()
          + " so far): " + error, error);
    }
  }

  /** How many failures were counted at {@code where}, of every kind. */
  public long count(String where) {
    return kinds.values().stream().filter(kind -> kind.where.equals(where))
        .mapToLong(kind -> kind.count.get()).sum();
  }

  private static final class Kind {
    static final long NEVER = Long.MIN_VALUE;
    final String where;
    final AtomicLong count = new AtomicLong();
    final AtomicLong loggedAt = new AtomicLong(NEVER);

    Kind(String where) {
      this.where = where;
    }
  }
}
