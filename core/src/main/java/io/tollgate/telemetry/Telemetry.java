package io.tollgate.telemetry;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.tollgate.limiter.LimiterHealth;
import io.tollgate.router.BreakerState;
import io.tollgate.router.BreakerTransition;
import io.tollgate.router.ProviderBreakers;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Tollgate's link to OpenTelemetry: which {@link OpenTelemetry} its spans and metrics go to.
 *
 * <ul>
 *   <li>{@link #global()}: the app's or the OpenTelemetry Java agent's {@link GlobalOpenTelemetry},
 *       from the moment one is set (checked without setting it, see {@link GlobalState}, so
 *       Tollgate never triggers the SDK's autoconfiguration itself); until then nothing is recorded;
 *   <li>{@link #of(OpenTelemetry)}: a given instance (tests, apps that do not register a global one);
 *   <li>{@link #noop()}: nothing.
 * </ul>
 *
 * <p>{@link #withMetrics(MetricsRecorder)} sends the measurements to a recorder of the front end's
 * instead of OpenTelemetry's meter (spans stay OpenTelemetry's).
 *
 * <p>While nothing is recorded, {@link #instruments()} is null and callers build no attributes at
 * all: the hot path then costs one volatile read.
 */
public final class Telemetry {

  private static final Telemetry NOOP = new Telemetry(OpenTelemetry.noop(), null, ContextLink.LOCAL, null);

  private final OpenTelemetry fixed;
  /** Asked on each call until it names an instance: null while there is none (yet). */
  private final Supplier<OpenTelemetry> source;
  private final ContextLink link;
  /** The front end's recorder, or null: OpenTelemetry's meter. */
  private final MetricsRecorder metrics;
  /** With a recorder, what records while {@code source} names no instance: its metrics, no spans. */
  private final Instruments untilAvailable;
  private volatile Instruments instruments;
  private final List<BreakerSource> breakerSources = new CopyOnWriteArrayList<>();
  private final CopyOnWriteArrayList<LimiterHealth> limiters = new CopyOnWriteArrayList<>();
  private final List<Budget> budgets = new CopyOnWriteArrayList<>();
  private final Set<ProviderBreakers> listenedTo = Collections.newSetFromMap(new IdentityHashMap<>());

  private Telemetry(OpenTelemetry fixed, Supplier<OpenTelemetry> source, ContextLink link,
      MetricsRecorder metrics) {
    this.fixed = fixed;
    this.source = source;
    this.link = link;
    this.metrics = metrics;
    this.untilAvailable = metrics == null ? null : instruments(OpenTelemetry.noop());
    if (fixed != null) {
      this.instruments = fixed == OpenTelemetry.noop() ? untilAvailable : instruments(fixed);
    }
  }

  /** Follows {@link GlobalOpenTelemetry}: records once the app or an agent has set it. */
  public static Telemetry global() {
    return whenAvailable(() -> GlobalState.isSet() ? GlobalOpenTelemetry.get() : null,
        ContextLink.LOCAL);
  }

  /**
   * Records into what {@code source} names, from the first call it names one: it is asked on each
   * call until then (so it must be cheap), and never again after. The agent's way to follow the
   * app's own, unrelocated {@code GlobalOpenTelemetry}.
   */
  public static Telemetry whenAvailable(Supplier<OpenTelemetry> source, ContextLink link) {
    return new Telemetry(null, Objects.requireNonNull(source, "source"),
        Objects.requireNonNull(link, "link"), null);
  }

  public static Telemetry of(OpenTelemetry openTelemetry) {
    return of(openTelemetry, ContextLink.LOCAL);
  }

  /** A given instance, with its spans parented through {@code link} (the agent's). */
  public static Telemetry of(OpenTelemetry openTelemetry, ContextLink link) {
    return new Telemetry(Objects.requireNonNull(openTelemetry, "openTelemetry"), null,
        Objects.requireNonNull(link, "link"), null);
  }

  public static Telemetry noop() {
    return NOOP;
  }

  /**
   * The same spans, with every measurement recorded by {@code metrics} instead of OpenTelemetry's
   * meter, which then gets no instrument at all: each measurement is recorded once. Measurements
   * are recorded from the first call even while no OpenTelemetry is there for the spans. A new
   * telemetry: hand it to the gates and filters that should use it (what they watch is not shared
   * with this one).
   */
  public Telemetry withMetrics(MetricsRecorder metrics) {
    return new Telemetry(fixed, source, link, Objects.requireNonNull(metrics, "metrics"));
  }

  /** The instruments to record with, or null while there is nothing to record to. */
  public Instruments instruments() {
    Instruments current = instruments;
    if (current != null || source == null) {
      return current;
    }
    OpenTelemetry available = source.get();
    if (available == null) {
      return untilAvailable;
    }
    synchronized (this) {
      if (instruments == null) {
        instruments = instruments(available);
      }
      return instruments;
    }
  }

  private Instruments instruments(OpenTelemetry openTelemetry) {
    return new Instruments(openTelemetry.getTracer(TelemetryNames.SCOPE), metrics != null ? metrics
        : new OpenTelemetryMetrics(openTelemetry.getMeter(TelemetryNames.SCOPE), this));
  }

  public ContextLink link() {
    return link;
  }

  /**
   * Reports the states of {@code providers}' breakers ({@code tollgate.breaker.state}) and their
   * transitions (a counter, and an event on the current span). Idempotent per breakers instance,
   * so two gates sharing breakers report them once.
   *
   * @return a handle that stops the state reporting
   */
  public AutoCloseable watch(ProviderBreakers breakers, Collection<String> providers) {
    synchronized (listenedTo) {
      if (!listenedTo.add(breakers)) {
        return () -> { };
      }
    }
    breakers.onStateTransition(transitionListener());
    BreakerSource source = new BreakerSource(breakers, List.copyOf(providers));
    breakerSources.add(source);
    List<AutoCloseable> recorded = new ArrayList<>();
    if (metrics != null) {
      for (String provider : source.providers) {
        recorded.add(metrics.breakerState(provider, () -> gaugeValue(breakers.breaker(provider).state())));
      }
    }
    return () -> {
      breakerSources.remove(source);
      for (AutoCloseable handle : recorded) {
        handle.close();
      }
    };
  }

  /** Reports whether {@code limiter} decides without Redis, and for how long it has. */
  public AutoCloseable watch(LimiterHealth limiter) {
    if (!limiters.addIfAbsent(limiter)) {
      return () -> { };
    }
    AutoCloseable recorded = metrics == null ? () -> { } : metrics.limiterDegraded(limiter);
    return () -> {
      limiters.remove(limiter);
      recorded.close();
    };
  }

  /**
   * Reports the part of each of {@code budgets} spent ({@code tollgate.budget.used}). A budget of
   * the same provider, model and period as one already reported (a second gate on the same
   * configuration) is left out: one series each.
   *
   * @return a handle that stops reporting the budgets this call added
   */
  public AutoCloseable watchBudgets(Collection<Budget> budgets) {
    List<Budget> added = new ArrayList<>();
    synchronized (this.budgets) {
      for (Budget budget : budgets) {
        if (this.budgets.stream().noneMatch(budget::sameSeries)) {
          this.budgets.add(budget);
          added.add(budget);
        }
      }
    }
    List<AutoCloseable> recorded = new ArrayList<>();
    if (metrics != null) {
      for (Budget budget : added) {
        recorded.add(metrics.budgetUsed(budget));
      }
    }
    return () -> {
      this.budgets.removeAll(added);
      for (AutoCloseable handle : recorded) {
        handle.close();
      }
    };
  }

  private Consumer<BreakerTransition> transitionListener() {
    return transition -> {
      Instruments current = instruments();
      if (current != null) {
        current.breakerTransition(transition);
      }
    };
  }

  void observeBreakers(BreakerObserver observer) {
    for (BreakerSource source : breakerSources) {
      for (String provider : source.providers) {
        observer.observe(provider, source.breakers.breaker(provider).state());
      }
    }
  }

  Collection<LimiterHealth> limiters() {
    return limiters;
  }

  Collection<Budget> budgets() {
    return budgets;
  }

  interface BreakerObserver {
    void observe(String provider, BreakerState state);
  }

  private record BreakerSource(ProviderBreakers breakers, List<String> providers) {}

  /** For a breaker state gauge: 0 closed, 1 half-open, 2 open. */
  static long gaugeValue(BreakerState state) {
    return switch (state) {
      case CLOSED -> 0;
      case HALF_OPEN -> 1;
      case OPEN -> 2;
    };
  }

  static final Map<BreakerState, String> STATE_NAMES = Map.of(
      BreakerState.CLOSED, "closed", BreakerState.OPEN, "open", BreakerState.HALF_OPEN, "half_open");
}
