package io.tollgate.router.internal;

import io.tollgate.router.HealthBoard;
import io.tollgate.router.HealthConfig;
import io.tollgate.router.HealthScore;
import io.tollgate.router.HealthSnapshot;
import io.tollgate.router.ProviderHealth;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@link HealthBoard} over one {@link DecayingHealth} per provider. */
public final class DefaultHealthBoard implements HealthBoard {

  private final HealthConfig config;
  private final Map<String, ProviderHealth> healths;

  public DefaultHealthBoard(List<String> providers, HealthConfig config, Clock clock) {
    this.config = Objects.requireNonNull(config, "config");
    Map<String, ProviderHealth> byName = new LinkedHashMap<>();
    for (String provider : providers) {
      if (byName.put(provider, new DecayingHealth(provider, config.halfLife(), clock)) != null) {
        throw new IllegalArgumentException("provider " + provider + " is on the board twice");
      }
    }
    this.healths = Collections.unmodifiableMap(byName);
  }

  @Override
  public HealthConfig config() {
    return config;
  }

  @Override
  public ProviderHealth health(String provider) {
    ProviderHealth health = healths.get(provider);
    if (health == null) {
      throw new IllegalArgumentException("no provider " + provider + " on the board; known: " + healths.keySet());
    }
    return health;
  }

  @Override
  public double score(String provider) {
    health(provider);
    for (HealthScore score : scores()) {
      if (score.provider().equals(provider)) {
        return score.score();
      }
    }
    throw new AssertionError(provider); // health(provider) found it
  }

  @Override
  public List<String> rank(List<String> candidates) {
    List<HealthScore> scored = score(candidates);
    List<HealthScore> kept = new ArrayList<>(scored.size());
    for (HealthScore score : scored) {
      if (score.score() >= config.threshold()) {
        kept.add(score);
      }
    }
    kept.sort(Comparator.comparingDouble(HealthScore::score).reversed()); // stable: ties keep their order
    List<String> names = new ArrayList<>(kept.size());
    kept.forEach(score -> names.add(score.provider()));
    return Collections.unmodifiableList(names);
  }

  @Override
  public List<HealthScore> scores() {
    return score(List.copyOf(healths.keySet()));
  }

  private List<HealthScore> score(List<String> providers) {
    List<HealthSnapshot> snapshots = new ArrayList<>(providers.size());
    long bestP99 = Long.MAX_VALUE;
    for (String provider : providers) {
      HealthSnapshot snapshot = health(provider).snapshot();
      snapshots.add(snapshot);
      if (snapshot.p99().isPresent()) {
        bestP99 = Math.min(bestP99, snapshot.p99().get().toNanos());
      }
    }
    List<HealthScore> scores = new ArrayList<>(snapshots.size());
    for (HealthSnapshot snapshot : snapshots) {
      scores.add(score(snapshot, bestP99));
    }
    return Collections.unmodifiableList(scores);
  }

  private HealthScore score(HealthSnapshot health, long bestP99) {
    Optional<Duration> p99 = health.p99();
    // Unknown latency counts as the best's: no reason yet to prefer another provider over it.
    double latencyRatio = p99.isPresent() ? (double) bestP99 / p99.get().toNanos() : 1.0;
    double latencyFactor = weighted(config.latencyWeight(), latencyRatio);
    double quotaFactor = weighted(config.quotaWeight(), health.quotaRatio());
    return new HealthScore(health, latencyFactor, quotaFactor, health.successRate() * latencyFactor * quotaFactor);
  }

  private static double weighted(double weight, double ratio) {
    return (1.0 - weight) + weight * ratio;
  }
}
