package io.tollgate.config;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * How Tollgate reaches Redis beyond host and port: over TLS or not, and the ACL user and password
 * it signs in with, as the scheme and {@code user:password@} of a {@code redis://} or {@code
 * rediss://} URL give them. The password stays a {@link Secret}, so this prints no password.
 */
record RedisLogin(boolean tls, Optional<String> user, Optional<Secret> password) {

  static final RedisLogin PLAIN = new RedisLogin(false, Optional.empty(), Optional.empty());

  RedisLogin {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
  }

  /**
   * The login of a parsed {@code redis://} or {@code rediss://} URL; {@code user:password@} and
   * {@code :password@} are read as Jedis reads them (percent-escapes decoded, split at the first
   * {@code :}), and a password is required once {@code @} is written.
   *
   * @throws ConfigException naming {@code key}, without the password, when the password is missing
   */
  static RedisLogin of(String key, URI url) {
    boolean tls = url.getScheme().equalsIgnoreCase("rediss");
    String userInfo = url.getUserInfo();
    if (userInfo == null) {
      return new RedisLogin(tls, Optional.empty(), Optional.empty());
    }
    int colon = userInfo.indexOf(':');
    if (colon < 0 || colon == userInfo.length() - 1) {
      throw new ConfigException(key, "must give the password as user:password@ or :password@,"
          + " was " + Urls.redacted(url));
    }
    String user = userInfo.substring(0, colon);
    return new RedisLogin(tls, user.isEmpty() ? Optional.empty() : Optional.of(user),
        Optional.of(Secret.of(userInfo.substring(colon + 1))));
  }

  /** True when a user or a password is given. */
  boolean hasCredentials() {
    return user.isPresent() || password.isPresent();
  }

  /** The same scheme, user and password; the passwords are compared in constant time. */
  boolean sameAs(RedisLogin other) {
    return tls == other.tls && user.equals(other.user) && password.equals(other.password);
  }

  /** How an address with this login is shown: {@code rediss://***@host:port}, or plain {@code host:port}. */
  String show(RedisNode node) {
    if (!tls && !hasCredentials()) {
      return node.toString();
    }
    return (tls ? "rediss://" : "redis://") + (hasCredentials() ? Secret.MASK + "@" : "") + node;
  }
}
