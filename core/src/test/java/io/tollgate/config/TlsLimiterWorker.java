package io.tollgate.config;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;
import java.time.Duration;

/**
 * The JVM of {@link RedisTlsTest} that trusts the test certificate the way an app in production
 * trusts its Redis's: through {@code javax.net.ssl.trustStore}. It loads the YAML of its first
 * argument with the real environment (which holds {@code REDIS_PASSWORD}), makes 8 reservations of
 * one request against 5 per minute for each subject id that follows, and prints one line each:
 * {@code RESULT <id> <allowed> <degraded>}.
 */
public final class TlsLimiterWorker {

  private TlsLimiterWorker() {}

  public static void main(String[] args) {
    TollgateConfig config = TollgateConfigLoader.create().fromYaml(args[0]);
    Limits limits = Limits.of(Limit.requests(5, Duration.ofMinutes(1)));
    try (RedisConnection connection = config.redis().orElseThrow().newConnection();
        RateLimiter limiter = Limiters.create(config.redis(), connection)) {
      // a cold JVM's first TLS handshakes may outlast the timeout, and these runs count exactly;
      // a refused certificate ends the attempt at once
      connection.awaitConnected(Duration.ofSeconds(60));
      for (int i = 1; i < args.length; i++) {
        int allowed = 0;
        int degraded = 0;
        for (int call = 0; call < 8; call++) {
          Decision decision = limiter.reserve(Subject.of("tenant", args[i]), limits, 1, 0);
          allowed += decision.allowed() ? 1 : 0;
          degraded += decision.degraded() ? 1 : 0;
        }
        System.out.println("RESULT " + args[i] + " " + allowed + " " + degraded);
      }
    }
  }
}
