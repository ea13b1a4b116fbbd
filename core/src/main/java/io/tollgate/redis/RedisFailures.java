package io.tollgate.redis;

import java.util.NoSuchElementException;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * What a failure of Redis is, for the code above {@link RedisScripts}, which sees no type of the
 * Redis client: whether an exception is one ({@link #isRedisFailure}), whether it is only the pool
 * having no free connection ({@link #poolExhausted}), and one line on why it happened ({@link
 * #describe}) for the log line that opens a degraded episode.
 *
 * <p>A refused login is named as such: it is a configuration to fix, not an outage to wait out.
 * Jedis's and Redis's own messages name hosts and ports, never a password ({@code WRONGPASS},
 * {@code NOAUTH} quote no credentials).
 */
public final class RedisFailures {

  private RedisFailures() {}

  public static String describe(Throwable failure) {
    if (failure == null) {
      return "no reply";
    }
    Throwable refused = refusedLogin(failure);
    if (refused != null) {
      return "Redis refused the login (" + refused.getMessage()
          + "); check the user and password in tollgate.redis";
    }
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    // A Cluster client that reached no seed keeps the first reason as a suppressed exception.
    if (root == failure && failure.getSuppressed().length > 0) {
      root = failure.getSuppressed()[0];
    }
    return root == failure ? shown(failure) : shown(failure) + " (" + shown(root) + ")";
  }

  /** True when {@code failure} is Redis failing (or unreachable), as opposed to a bug. */
  public static boolean isRedisFailure(Throwable failure) {
    return failure instanceof JedisException;
  }

  /**
   * A failure to reach Redis, as the client throws it: {@link #isRedisFailure} says yes. Typed as
   * a {@link RuntimeException}, so that code which throws it loads no class of the client
   * library (the agent loads none without Redis).
   */
  public static RuntimeException unreachable(String message, Throwable cause) {
    return new JedisConnectionException(message, cause);
  }

  /**
   * A Redis call that ended without an answer for another reason (a wait for a lease given up):
   * {@link #isRedisFailure} says yes, so the failure policy decides it as it decides an outage.
   */
  public static RuntimeException failed(String message, Throwable cause) {
    return new JedisException(message, cause);
  }

  /**
   * True when {@code failure} is the pool having no idle connection within its wait (Jedis wraps
   * the pool's {@link NoSuchElementException}, which has no cause of its own then), as opposed to
   * a connection that could not be made or a command that failed.
   */
  public static boolean poolExhausted(Throwable failure) {
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof NoSuchElementException && t.getCause() == null) {
        return true;
      }
    }
    return false;
  }

  /** Simple class name and message: the agent relocates Jedis, and the package says nothing useful. */
  private static String shown(Throwable t) {
    return t.getMessage() == null
        ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  /** The refused login among {@code failure}, its causes and what they suppressed, or null. */
  private static Throwable refusedLogin(Throwable failure) {
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      if (isRefusedLogin(t)) {
        return t;
      }
      for (Throwable suppressed : t.getSuppressed()) {
        if (isRefusedLogin(suppressed)) {
          return suppressed;
        }
      }
    }
    return null;
  }

  private static boolean isRefusedLogin(Throwable t) {
    String message = t.getMessage() == null ? "" : t.getMessage();
    return t instanceof JedisAccessControlException
        || message.startsWith("NOAUTH") || message.startsWith("WRONGPASS");
  }
}
