package io.tollgate.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The entries of {@code tollgate.redis.cluster}: {@code host:port} ({@code [v6-address]:port}), or
 * {@code redis://[user:password@]host:port} / {@code rediss://...} when the nodes need a password
 * or TLS. One client signs in to every node the same way, so every entry must agree on scheme and
 * credentials; a plain {@code host:port} means {@code redis://} without credentials.
 */
record ClusterSeeds(List<RedisNode> nodes, RedisLogin login) {

  private static final Set<String> SCHEMES = Set.of("redis", "rediss");
  private static final String EXPECTED_URL =
      "redis://[user:password@]host:port or rediss://[user:password@]host:port";

  ClusterSeeds {
    nodes = List.copyOf(nodes);
  }

  /** @throws ConfigException naming {@code cluster[i]} for the first bad or disagreeing entry */
  static ClusterSeeds parse(List<String> entries) {
    List<RedisNode> nodes = new ArrayList<>(entries.size());
    RedisLogin first = null;
    for (int i = 0; i < entries.size(); i++) {
      String key = "cluster[" + i + "]";
      String text = entries.get(i);
      RedisLogin login;
      if (text.contains("://")) {
        URI url = url(key, text);
        login = RedisLogin.of(key, url);
        nodes.add(node(url));
      } else {
        login = RedisLogin.PLAIN;
        nodes.add(hostAndPort(key, text));
      }
      if (first == null) {
        first = login;
      } else {
        requireSame(key, first, login, text);
      }
    }
    return new ClusterSeeds(nodes, first == null ? RedisLogin.PLAIN : first);
  }

  private static URI url(String key, String text) {
    URI url = Urls.parse(key, text, SCHEMES, EXPECTED_URL);
    String path = url.getRawPath();
    if (url.getPort() < 1 || url.getPort() > 65535 || (path != null && !path.isEmpty() && !path.equals("/"))
        || url.getRawQuery() != null || url.getRawFragment() != null) {
      // No /db: a Redis Cluster has database 0 only.
      throw new ConfigException(key, "must be " + EXPECTED_URL + ", was " + Urls.redacted(url));
    }
    return url;
  }

  private static RedisNode node(URI url) {
    String host = url.getHost();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1); // an IPv6 literal
    }
    return new RedisNode(host, url.getPort());
  }

  private static RedisNode hostAndPort(String key, String text) {
    int colon = text.lastIndexOf(':');
    String host = colon < 0 ? "" : text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    String port = colon < 0 ? "" : text.substring(colon + 1);
    if (host.isBlank() || !port.matches("\\d{1,5}")
        || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
      throw new ConfigException(key, "must be host:port with a port in 1..65535, was "
          + ConfigException.shown(text));
    }
    return new RedisNode(host, Integer.parseInt(port));
  }

  private static void requireSame(String key, RedisLogin first, RedisLogin login, String text) {
    String was = ", was " + Urls.redacted(text);
    if (login.tls() != first.tls()) {
      throw new ConfigException(key, first.tls()
          ? "must use rediss:// like cluster[0]: every entry uses the same scheme" + was
          : "must use redis:// (or host:port) like cluster[0]: every entry uses the same scheme" + was);
    }
    if (!login.sameAs(first)) {
      throw new ConfigException(key, first.hasCredentials()
          ? "must carry the same user:password@ as cluster[0]: one login signs in to every node" + was
          : "must carry no user:password@, like cluster[0]: one login signs in to every node" + was);
    }
  }
}
