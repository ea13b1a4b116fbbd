package io.tollgate.spring.boot.actuate;

import io.tollgate.config.Mode;
import io.tollgate.config.RedisConfig;
import io.tollgate.gate.Gate;
import io.tollgate.limiter.FailurePolicy;
import io.tollgate.limiter.LimiterHealth;
import io.tollgate.redis.RedisConnection;
import io.tollgate.router.BreakerState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the health indicator of either Boot line reports. Down only when this instance cannot
 * serve: Redis does not answer, {@code tollgate.redis.on-failure} is {@code fail-closed} and the
 * mode is {@code enforce}, so every limited call is refused. Up otherwise, with {@code degraded}
 * and its {@code reason} in the details when Redis does not answer under {@code fail-open} (the
 * limiter decides locally with {@code local-share} of each limit), the limiter has not resumed
 * shared decisions yet, or provider breakers are open (their calls go to fallbacks): a probe that
 * restarted or unrouted the instance for a dependency it can run without would make an outage of
 * a degradation.
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
    List<String> reasons = new ArrayList<>();
    details.put("mode", lowerCase(gate.config().mode()));
    boolean up = true;
    Optional<RedisConfig> redisConfig = gate.config().redis();
    if (redisConfig.isPresent()) {
      FailurePolicy policy = redisConfig.get().onFailure();
      boolean reachable = redis.map(TollgateHealth::ping).orElse(false);
      details.put("limiter", "redis");
      details.put("onFailure", lowerCase(policy));
      details.put("redisReachable", reachable);
      if (!reachable && policy == FailurePolicy.FAIL_OPEN) {
        reasons.add("Redis unreachable: deciding locally with " + redisConfig.get().localShare()
            + " of each limit (on-failure: fail-open)");
      } else if (!reachable && gate.config().mode() == Mode.ENFORCE) {
        up = false;
        reasons.add("Redis unreachable: denying every limited call until it answers (on-failure: fail-closed)");
      } else if (!reachable) {
        reasons.add("Redis unreachable: its denials are not enforced in mode " + lowerCase(gate.config().mode())
            + " (on-failure: fail-closed)");
      }
      if (reachable && gate.limiter() instanceof LimiterHealth health && health.isDegraded()) {
        reasons.add("Redis answers again: shared decisions resume at the limiter's next probe");
      }
    } else {
      details.put("limiter", "in-memory");
    }
    if (gate.limiter() instanceof LimiterHealth health) {
      details.put("limiterDegraded", health.isDegraded());
    }
    Map<String, String> breakers = new LinkedHashMap<>();
    List<String> open = new ArrayList<>();
    for (String provider : gate.config().providers().keySet()) {
      BreakerState state = gate.breakers().breaker(provider).state();
      breakers.put(provider, lowerCase(state));
      if (state != BreakerState.CLOSED) {
        open.add(provider);
      }
    }
    if (!open.isEmpty()) {
      reasons.add("open provider breakers: " + String.join(", ", open) + " (their calls go to fallbacks)");
    }
    details.put("degraded", !reasons.isEmpty());
    if (!reasons.isEmpty()) {
      details.put("reason", String.join("; ", reasons));
    }
    details.put("breakers", breakers);
    details.put("openBreakers", open);
    return new Report(up, details);
  }

  private static String lowerCase(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static boolean ping(RedisConnection connection) {
    return connection.ping();
  }
}
