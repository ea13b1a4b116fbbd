package io.tollgate.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The {@code tollgate.status} section: where the status page is served (docs/operations.md).
 * The agent serves it on {@code port} (off when not set), the servlet filter on {@code path} (off
 * when not set), the Spring Boot starter under {@code /actuator/tollgate}. Its data needs {@code
 * token} as a bearer token whenever one is set, and always from beyond loopback: a port bound
 * beyond loopback without a token is refused at start-up.
 */
public final class StatusConfig {

  public static final String DEFAULT_BIND = "127.0.0.1";
  /** The shortest token accepted: guessing one must not be practical. */
  public static final int MIN_TOKEN_LENGTH = 16;

  private static final StatusConfig DEFAULTS = new Builder().build();
  private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9._~/-]*");

  private final OptionalInt port;
  private final String bind;
  private final Optional<String> token;
  private final Optional<String> path;

  private StatusConfig(Builder builder) {
    this.port = builder.port;
    this.bind = builder.bind;
    this.token = builder.token;
    this.path = builder.path;
  }

  /** Served nowhere. */
  public static StatusConfig ofDefaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code port}: the agent's status server, 1 to 65535, or 0 for any free port; empty: none. */
  public OptionalInt port() {
    return port;
  }

  /** {@code bind}: the address the agent's status server listens on, {@code 127.0.0.1} by default. */
  public String bind() {
    return bind;
  }

  /** {@code token}: the bearer token the page's data requires; never shown by {@link #toString()}. */
  public Optional<String> token() {
    return token;
  }

  /** {@code path}: where the servlet filter serves the page, e.g. {@code /tollgate/status}. */
  public Optional<String> path() {
    return path;
  }

  /** True when {@code bind} is a loopback address (named as an address, or {@code localhost}). */
  public boolean bindsLoopback() {
    return isLoopback(bind);
  }

  static boolean isLoopback(String host) {
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (!host.matches("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
      return false; // a host name is not resolved here: it could name any address later
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StatusConfig other && port.equals(other.port) && bind.equals(other.bind)
        && token.equals(other.token) && path.equals(other.path);
  }

  @Override
  public int hashCode() {
    return Objects.hash(port, bind, token, path);
  }

  @Override
  public String toString() {
    return "{" + (port.isPresent() ? "port=" + port.getAsInt() + ", " : "") + "bind=" + bind
        + (token.isPresent() ? ", token=***" : "") + path.map(p -> ", path=" + p).orElse("") + "}";
  }

  /** Collects the section; each setter rejects a bad value at once, {@link #build} the whole. */
  public static final class Builder {
    private OptionalInt port = OptionalInt.empty();
    private String bind = DEFAULT_BIND;
    private Optional<String> token = Optional.empty();
    private Optional<String> path = Optional.empty();

    private Builder() {}

    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new ConfigException("port", "must be from 1 to 65535 (0: any free port), was " + port);
      }
      this.port = OptionalInt.of(port);
      return this;
    }

    public Builder bind(String bind) {
      if (bind == null || bind.isBlank() || bind.contains("/") || bind.contains(" ")) {
        throw new ConfigException("bind", "must be an address or a host name, was "
            + ConfigException.shown(bind));
      }
      this.bind = bind.trim();
      return this;
    }

    /** An empty token (an unset environment variable) means none. */
    public Builder token(String token) {
      if (token == null || token.isEmpty()) {
        this.token = Optional.empty();
        return this;
      }
      if (token.length() < MIN_TOKEN_LENGTH || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
        // the value is a secret: its length is all the message tells
        throw new ConfigException("token", "must be at least " + MIN_TOKEN_LENGTH
            + " printable ASCII characters without spaces, was one of " + token.length());
      }
      this.token = Optional.of(token);
      return this;
    }

    public Builder path(String path) {
      if (path == null || !PATH.matcher(path).matches() || path.equals("/") || path.endsWith("/")
          || path.contains("//") || path.contains("/../") || path.endsWith("/..")) {
        throw new ConfigException("path", "must be a path such as /tollgate/status (letters, digits,"
            + " . _ ~ - and /, not ending in /), was " + ConfigException.shown(path));
      }
      this.path = Optional.of(path);
      return this;
    }

    public StatusConfig build() {
      if (port.isPresent() && token.isEmpty() && !isLoopback(bind)) {
        throw new ConfigException("token", "is required when the status page is served beyond"
            + " loopback (bind " + bind + "); set it, e.g. token: ${TOLLGATE_STATUS_TOKEN}");
      }
      return new StatusConfig(this);
    }
  }
}
