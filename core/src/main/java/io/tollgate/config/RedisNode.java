package io.tollgate.config;

/**
 * One seed node of a Redis Cluster ({@code tollgate.redis.cluster}).
 *
 * @param host a host name or IP address (IPv6 without brackets)
 * @param port 1 to 65535
 */
public record RedisNode(String host, int port) {

  /** Rejects an empty host or a port outside 1..65535. */
  public RedisNode {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("redis node host must not be empty");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("redis node port must be in 1..65535, was " + port);
    }
  }

  /** {@code host:port}, or {@code [v6-address]:port}, as it is written in the configuration. */
  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
