package io.tollgate.config;

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
    try (RedisConnection connection = RedisConnection.of(config.redis().orElseThrow())) {
      System.out.println("PING " + connection.client().ping());
    } catch (RuntimeException e) {
      System.out.println("FAILED");
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        System.out.println("CAUSE " + cause.getClass().getName() + ": " + cause.getMessage());
      }
    }
  }
}
