package io.tollgate.router.internal;

import io.tollgate.router.BreakerState;
import io.tollgate.router.BreakerTransition;
import io.tollgate.router.ProviderBreaker;
import io.tollgate.router.ProviderBreakers;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/** The breakers of every provider, each created on first use; shared through a store when given one. */
public final class DefaultProviderBreakers implements ProviderBreakers {

  private static final System.Logger LOG = System.getLogger(ProviderBreakers.class.getName());

  private final BreakerSettings settings;
  private final ConcurrentMap<String, DefaultProviderBreaker> breakers = new ConcurrentHashMap<>();
  private final List<Consumer<? super BreakerTransition>> listeners = new CopyOnWriteArrayList<>();
  private final FleetSync fleet; // null: breakers of this JVM alone

  public DefaultProviderBreakers(BreakerSettings settings, Optional<? extends BreakerStore> store) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.fleet = store
        .map(s -> new FleetSync(s, settings.refreshInterval(), breakers::values))
        .orElse(null);
  }

  @Override
  public ProviderBreaker breaker(String provider) {
    Objects.requireNonNull(provider, "provider");
    DefaultProviderBreaker breaker = breakers.get(provider);
    if (breaker != null) {
      return breaker;
    }
    if (provider.isEmpty()) {
      throw new IllegalArgumentException("provider must be a configured provider's name, was \"\"");
    }
    return breakers.computeIfAbsent(provider, name -> new DefaultProviderBreaker(name, settings,
        fleet == null ? DefaultProviderBreaker.Fleet.NONE : fleet, this::publish));
  }

  @Override
  public ProviderBreakers onStateTransition(Consumer<? super BreakerTransition> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
    return this;
  }

  @Override
  public Duration switchOverDelay() {
    long max = settings.switchOverJitter().toMillis();
    if (max == 0) {
      return Duration.ZERO;
    }
    RandomGenerator random = settings.random();
    synchronized (random) { // a RandomGenerator need not be thread-safe
      return Duration.ofMillis(random.nextLong(max + 1));
    }
  }

  @Override
  public boolean isShared() {
    return fleet != null && fleet.coordinating();
  }

  @Override
  public void close() {
    if (fleet != null) {
      fleet.close();
    }
  }

  private void publish(BreakerTransition transition) {
    if (transition.to() != BreakerState.HALF_OPEN) {
      LOG.log(Level.INFO, "circuit breaker of provider {0}: {1} -> {2} ({3}){4}",
          transition.provider(), transition.from(), transition.to(), transition.reason(),
          transition.openUntil().map(until -> ", open until " + until).orElse(""));
    }
    for (Consumer<? super BreakerTransition> listener : listeners) {
      try {
        listener.accept(transition);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "a circuit breaker listener failed", e);
      }
    }
  }
}
