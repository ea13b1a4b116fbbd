package io.tollgate.bench.limiter;

import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A diagnostic, not a way to deploy: {@link TollgateScenario}'s reserve with a connection of its
 * own per thread (a pool of one) instead of one pool shared by every thread, as redis-benchmark
 * has. The gap between the two rows is what contending for the shared pool costs.
 */
final class UnpooledTollgateScenario implements Scenario {

  private final RedisServer server;
  private final Limits limits = Workload.limits();
  private final Subject[] subjects = new Subject[Workload.SUBJECTS];
  private final List<RedisConnection> connections = new ArrayList<>();

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
    RedisConnection connection = RedisConnection.standalone(server.uri())
        .timeout(Duration.ofSeconds(1)).poolSize(1).build();
    synchronized (connections) {
      connections.add(connection);
    }
    RateLimiter limiter = RateLimiter.redis(connection);
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
    synchronized (connections) {
      connections.forEach(RedisConnection::close);
      connections.clear();
    }
  }
}
