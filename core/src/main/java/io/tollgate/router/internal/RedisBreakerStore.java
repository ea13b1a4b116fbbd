package io.tollgate.router.internal;

import io.tollgate.limiter.Subject;
import io.tollgate.redis.LuaScript;
import io.tollgate.redis.RedisScripts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fleet's breakers in Redis (standalone or Cluster): each operation is one run of
 * {@code lua/breaker.lua} on the provider's slot, on the server's clock, through {@link
 * RedisScripts}.
 *
 * <p>Keys: {@code tg:{breaker:<hash>}:state} (the episode) and {@code tg:{breaker:<hash>}:probe}
 * (the probe lock), where {@code <hash>} is the digest of the provider's name that
 * {@link Subject} makes: one hash tag, so one slot, and no raw name in Redis.
 */
public final class RedisBreakerStore implements BreakerStore {

  private static final LuaScript SCRIPT = LuaScript.load("breaker");
  private static final String KEY_PREFIX = "tg:";

  private final RedisScripts redis;
  private final String instanceId = UUID.randomUUID().toString();
  private final String lockTtlMillis;
  private final String keepMillis;
  private final Map<String, List<byte[]>> keys = new ConcurrentHashMap<>();

  /** Runs the script through {@code redis}; a run that throws counts as Redis unreachable. */
  public RedisBreakerStore(RedisScripts redis, BreakerSettings settings) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.lockTtlMillis = Long.toString(settings.probeLockTtl().toMillis());
    // an episode nobody probes is forgotten max-open-for after its open time: by then no
    // instance would still wait for it
    this.keepMillis = Long.toString(settings.config().maxOpenFor().toMillis());
  }

  /** The key of {@code provider}'s episode. */
  public static String stateKey(String provider) {
    return KEY_PREFIX + Subject.of("breaker", provider).hashTag() + ":state";
  }

  /** The key of {@code provider}'s probe lock. */
  public static String probeKey(String provider) {
    return KEY_PREFIX + Subject.of("breaker", provider).hashTag() + ":probe";
  }

  @Override
  public SharedState open(String provider, int attempt, Duration openTime) {
    return run(provider, "open", Integer.toString(attempt), Long.toString(openTime.toMillis()), "0");
  }

  @Override
  public SharedState sync(String provider, boolean wantProbe) {
    return run(provider, "sync", wantProbe ? "1" : "0", "0", "0");
  }

  @Override
  public SharedState probeSucceeded(String provider, long generation) {
    return run(provider, "succeeded", Long.toString(generation), "0", "0");
  }

  @Override
  public SharedState probeFailed(String provider, long generation, int attempt, Duration nextOpenTime) {
    return run(provider, "failed", Long.toString(generation), Integer.toString(attempt),
        Long.toString(nextOpenTime.toMillis()));
  }

  @Override
  public SharedState releaseProbe(String provider) {
    return run(provider, "release", "0", "0", "0");
  }

  private SharedState run(String provider, String op, String a5, String a6, String a7) {
    List<byte[]> providerKeys = keys.computeIfAbsent(provider,
        name -> List.of(bytes(stateKey(name)), bytes(probeKey(name))));
    List<byte[]> args = new ArrayList<>(7);
    for (String arg : List.of(op, instanceId, lockTtlMillis, keepMillis, a5, a6, a7)) {
      args.add(bytes(arg));
    }
    List<?> values = (List<?>) redis.eval(SCRIPT, providerKeys, args);
    SharedState.Prober prober = SharedState.Prober.values()[((Long) values.get(3)).intValue()];
    return new SharedState((Long) values.get(0), ((Long) values.get(1)).intValue(),
        (Long) values.get(2), prober);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
