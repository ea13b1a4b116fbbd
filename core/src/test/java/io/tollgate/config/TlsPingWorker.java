package io.tollgate.config;

import io.tollgate.redis.RedisClientAccess;
import io.tollgate.redis.RedisConnection;

/**
 * The JVM of {@link RedisVerifyHostTest} that trusts the test certificate through {@code
 * javax.net.ssl.trustStore}: it loads the YAML of its first argument, sends one PING through the
 * {@link RedisConnection} Tollgate would use and prints {@code PING <reply>}, or {@code FAILED}
 * followed by one line per exception of the failure's cause chain: {@code CAUSE <class>: <message>}.
 */
public final class TlsPingWorker {

  private TlsPingWorker() {}

  public static void main(String[] args) {
    TollgateConfig config = TollgateConfigLoader.create().fromYaml(args[0]);
    try (RedisConnection connection = config.redis().orElseThrow().newConnection()) {
      System.out.println("PING " + RedisClientAccess.client(connection).ping());
    } catch (RuntimeException e) {
      System.out.println("FAILED");
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        System.out.println("CAUSE " + cause.getClass().getName() + ": " + cause.getMessage());
      }
    }
  }
}
