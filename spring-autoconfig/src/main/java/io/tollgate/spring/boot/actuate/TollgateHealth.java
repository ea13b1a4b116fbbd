package io.tollgate.spring.boot.actuate;

import io.tollgate.config.RedisConnection;
import io.tollgate.gate.Gate;
import io.tollgate.limiter.ResilientRateLimiter;
import io.tollgate.router.BreakerState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the health indicator of either Boot line reports: down while a configured Redis does not
 * answer (the limiter then runs on its failure policy), up otherwise, with the breakers that are
 * open among the details (their calls go to fallbacks: degraded, not down).
 */
public final class TollgateHealth {

  private final Gate gate;
  private final Optional<RedisConnection> redis;

  public TollgateHealth(Gate gate, Optional<RedisConnection> redis) {
    this.gate = gate;
    this.redis = redis;
  }

  /** The outcome of one check. */
  public record Report(boolean up, Map<String, Object> details) {}

  public Report check() {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("mode", gate.config().mode().name().toLowerCase(java.util.Locale.ROOT));
    boolean up = true;
    if (gate.config().redis().isPresent()) {
      boolean reachable = redis.map(TollgateHealth::ping).orElse(false);
      details.put("limiter", "redis");
      details.put("redisReachable", reachable);
      up = reachable;
    } else {
      details.put("limiter", "in-memory");
    }
    if (gate.limiter() instanceof ResilientRateLimiter resilient) {
      details.put("limiterDegraded", resilient.isDegraded());
    }
    Map<String, String> breakers = new LinkedHashMap<>();
    List<String> open = new ArrayList<>();
    for (String provider : gate.config().providers().keySet()) {
      BreakerState state = gate.breakers().breaker(provider).state();
      breakers.put(provider, state.name().toLowerCase(java.util.Locale.ROOT));
      if (state != BreakerState.CLOSED) {
        open.add(provider);
      }
    }
    details.put("breakers", breakers);
    details.put("openBreakers", open);
    return new Report(up, details);
  }

  private static boolean ping(RedisConnection connection) {
    try {
      return connection.clientIfReachable().map(client -> "PONG".equalsIgnoreCase(client.ping())).orElse(false);
    } catch (RuntimeException e) {
      return false;
    }
  }
}
