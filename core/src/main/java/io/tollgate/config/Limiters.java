package io.tollgate.config;

import io.tollgate.limiter.InMemoryRateLimiter;
import io.tollgate.limiter.MicroClock;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.RedisClients;
import io.tollgate.limiter.RedisRateLimiter;
import io.tollgate.limiter.ResilientRateLimiter;
import java.util.Optional;
import java.util.stream.Collectors;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;

/** The limiter a configuration asks for: in memory without {@code redis:}, else Redis with its policy. */
public final class Limiters {

  private Limiters() {}

  public static RateLimiter create(Optional<RedisConfig> redis) {
    if (redis.isEmpty()) {
      return InMemoryRateLimiter.create(MicroClock.system(), InMemoryRateLimiter.DEFAULT_RESERVATION_TTL);
    }
    RedisConfig config = redis.get();
    RedisRateLimiter shared = RedisRateLimiter.connecting(() -> client(config), config.reservationTtl());
    return ResilientRateLimiter.builder(shared)
        .onFailure(config.onFailure())
        .localShare(config.localShare())
        .reservationTtl(config.reservationTtl())
        .build();
  }

  private static UnifiedJedis client(RedisConfig config) {
    if (config.isCluster()) {
      return RedisClients.cluster(
          config.cluster().stream()
              .map(node -> new HostAndPort(node.host(), node.port()))
              .collect(Collectors.toList()),
          config.timeout(), config.poolSize(), null, null, false);
    }
    return RedisClients.standalone(config.url().orElseThrow(), config.timeout(), config.poolSize());
  }
}
