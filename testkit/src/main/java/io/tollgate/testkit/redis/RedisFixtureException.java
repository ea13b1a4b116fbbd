package io.tollgate.testkit.redis;

/**
 * A Redis test fixture could not reach the state it was asked for: a {@code redis-server} did not
 * start, a Cluster did not form, a failover did not happen in time.
 *
 * <p>The message is written for the person reading a failed build: it says what was awaited, for
 * how long, and carries the tail of the server's own log, which usually names the real cause
 * (a bad directive, a port in use, a binary that cannot run here).
 */
public final class RedisFixtureException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public RedisFixtureException(String message) {
    super(message);
  }

  public RedisFixtureException(String message, Throwable cause) {
    super(message, cause);
  }
}
