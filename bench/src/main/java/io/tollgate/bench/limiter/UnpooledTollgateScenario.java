package io.tollgate.bench.limiter;

import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RedisRateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.testkit.redis.RedisServer;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.UnifiedJedis;

/**
 * A diagnostic, not a way to deploy: {@link TollgateScenario}'s reserve with one dedicated
 * connection per thread instead of {@code RedisClients}' shared pool, as redis-benchmark has. The
 * gap between the two rows is what borrowing from and returning to the pool costs under
 * contention.
 */
final class UnpooledTollgateScenario implements Scenario {

  private final RedisServer server;
  private final Limits limits = Workload.limits();
  private final Subject[] subjects = new Subject[Workload.SUBJECTS];
  private final List<UnifiedJedis> clients = new ArrayList<>();

  UnpooledTollgateScenario(RedisServer server) {
    this.server = server;
    for (int i = 0; i < subjects.length; i++) {
      subjects[i] = Workload.subject(i);
    }
  }

  @Override
  public String name() {
    return "Tollgate reserve, unpooled (diagnostic)";
  }

  @Override
  public Call caller(int thread, int threads) {
    UnifiedJedis client = new SingleConnectionClient(new Connection(server.hostAndPort(),
        DefaultJedisClientConfig.builder().socketTimeoutMillis(1_000).build()));
    synchronized (clients) {
      clients.add(client);
    }
    RedisRateLimiter limiter = RedisRateLimiter.using(client);
    Workload.Cursor cursor = new Workload.Cursor(subjects.length, thread, threads);
    return () -> limiter.reserve(subjects[cursor.next()], limits, 1, Workload.ESTIMATE).allowed();
  }

  /** The previous run's threads are gone: their connections go too. */
  @Override
  public void reset() {
    close();
  }

  @Override
  public void close() {
    synchronized (clients) {
      clients.forEach(UnifiedJedis::close);
      clients.clear();
    }
  }

  /** Jedis keeps its one-connection constructor for subclasses. */
  private static final class SingleConnectionClient extends UnifiedJedis {
    SingleConnectionClient(Connection connection) {
      super(connection);
    }
  }
}
