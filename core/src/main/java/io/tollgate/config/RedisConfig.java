package io.tollgate.config;

import io.tollgate.limiter.FailurePolicy;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.ResilienceConfig;
import io.tollgate.redis.RedisConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code tollgate.redis} section: where the shared limiter lives and what to do when it cannot
 * be reached. Either a standalone {@link #url()} or {@link #cluster()} seed nodes, never both.
 * Without this section Tollgate limits in memory, per JVM.
 */
public final class RedisConfig {

  // from RedisConnection's constant, not its Duration: without Redis, that class is never loaded
  public static final Duration DEFAULT_TIMEOUT =
      Duration.ofMillis(RedisConnection.DEFAULT_TIMEOUT_MILLIS);
  public static final FailurePolicy DEFAULT_ON_FAILURE = FailurePolicy.FAIL_OPEN;
  public static final double DEFAULT_LOCAL_SHARE = ResilienceConfig.DEFAULT_LOCAL_SHARE;
  public static final int DEFAULT_POOL_SIZE = RedisConnection.DEFAULT_POOL_SIZE;
  public static final Duration DEFAULT_RESERVATION_TTL = RateLimiter.DEFAULT_RESERVATION_TTL;
  public static final boolean DEFAULT_VERIFY_HOST = true;

  private static final Set<String> SCHEMES = Set.of("redis", "rediss");
  private static final String EXPECTED_URL =
      "a redis:// or rediss:// URL with host and port, such as redis://127.0.0.1:6379";

  private final URI url;
  private final List<RedisNode> cluster;
  private final RedisLogin login;
  private final Duration timeout;
  private final FailurePolicy onFailure;
  private final double localShare;
  private final int poolSize;
  private final Duration reservationTtl;
  private final boolean verifyHost;

  private RedisConfig(Builder builder) {
    this.url = builder.url;
    this.cluster = builder.cluster.nodes();
    this.login = builder.url != null ? builder.urlLogin : builder.cluster.login();
    this.timeout = builder.timeout;
    this.onFailure = builder.onFailure;
    this.localShare = builder.localShare;
    this.poolSize = builder.poolSize;
    this.reservationTtl = builder.reservationTtl;
    this.verifyHost = builder.verifyHost;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@code url}: a standalone Redis, {@code redis://[user:password@]host:port[/db]} or
   * {@code rediss://} for TLS; empty when {@link #cluster()} is used.
   */
  public Optional<URI> url() {
    return Optional.ofNullable(url);
  }

  /**
   * {@code cluster}: seed nodes of a Redis Cluster, each written {@code host:port} or, when the
   * nodes need a password or TLS, {@code redis://[user:password@]host:port} or {@code rediss://...}
   * (every entry alike); empty when {@link #url()} is used. The login is {@link #tls()}, {@link
   * #user()} and {@link #password()}.
   */
  public List<RedisNode> cluster() {
    return cluster;
  }

  /** True when Tollgate speaks TLS to Redis: a {@code rediss://} url or cluster entries. */
  public boolean tls() {
    return login.tls();
  }

  /**
   * The ACL user Tollgate signs in as, from {@code user:password@} of the url or of the cluster
   * entries; empty for Redis's {@code default} user.
   */
  public Optional<String> user() {
    return login.user();
  }

  /** The password Tollgate signs in with, from the url or the cluster entries; empty when none is given. */
  public Optional<Secret> password() {
    return login.password();
  }

  /** True when this is a Redis Cluster rather than one server. */
  public boolean isCluster() {
    return !cluster.isEmpty();
  }

  /** {@code timeout}: the most one Redis call may take before it counts as a failure; default 100ms. */
  public Duration timeout() {
    return timeout;
  }

  /**
   * {@code on-failure}: {@code fail-open} (admit through a local limiter holding
   * {@link #localShare()} of each limit) or {@code fail-closed} (deny) while Redis cannot answer;
   * default {@code fail-open}.
   */
  public FailurePolicy onFailure() {
    return onFailure;
  }

  /**
   * {@code local-share}: the fraction of each limit, in (0, 1], one JVM may spend on its own while
   * Redis is unreachable; default 1.0.
   */
  public double localShare() {
    return localShare;
  }

  /** {@code pool-size}: connections per JVM to Redis (or per cluster node); default 32. */
  public int poolSize() {
    return poolSize;
  }

  /**
   * {@code reservation-ttl}: how long a reservation waits for its settle (the response's usage)
   * before it expires and its estimate stays charged; default 10m.
   */
  public Duration reservationTtl() {
    return reservationTtl;
  }

  /**
   * {@code verify-host}: over TLS, whether the server's certificate must name the host Tollgate
   * connects to (the url's host, each Cluster node's); default true. {@code false} accepts any
   * certificate the JVM trusts, whatever host it was issued for, which lets anyone holding such a
   * certificate stand in for Redis: for testing only.
   */
  public boolean verifyHost() {
    return verifyHost;
  }

  /**
   * A new connection to this Redis, its client made on first use ({@link
   * RedisConnection#connectInBackground()} starts it at once); the caller closes it.
   */
  public RedisConnection newConnection() {
    RedisConnection.Builder builder;
    if (isCluster()) {
      List<InetSocketAddress> seeds = cluster.stream()
          .map(node -> InetSocketAddress.createUnresolved(node.host(), node.port()))
          .toList();
      builder = RedisConnection.cluster(seeds)
          .login(user().orElse(null), password().map(Secret::reveal).orElse(null))
          .tls(tls());
    } else {
      builder = RedisConnection.standalone(url);
    }
    return builder.timeout(timeout).poolSize(poolSize).verifyHost(verifyHost).build();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RedisConfig other
        && Objects.equals(url, other.url)
        && cluster.equals(other.cluster)
        && login.equals(other.login)
        && timeout.equals(other.timeout)
        && onFailure == other.onFailure
        && Double.compare(localShare, other.localShare) == 0
        && poolSize == other.poolSize
        && reservationTtl.equals(other.reservationTtl)
        && verifyHost == other.verifyHost;
  }

  @Override
  public int hashCode() {
    return Objects.hash(url, cluster, login, timeout, onFailure, localShare, poolSize, reservationTtl,
        verifyHost);
  }

  @Override
  public String toString() {
    return "{" + (url != null ? "url=" + Urls.redacted(url) : "cluster=" + shownCluster())
        + ", timeout=" + Durations.format(timeout)
        + ", on-failure=" + Values.name(onFailure)
        + ", local-share=" + localShare
        + ", pool-size=" + poolSize
        + ", reservation-ttl=" + Durations.format(reservationTtl)
        // shown only when off: the unsafe setting should stand out in a log
        + (verifyHost ? "" : ", verify-host=false") + "}";
  }

  private List<String> shownCluster() {
    return cluster.stream().map(login::show).toList();
  }

  /** Collects the section; each setter rejects a bad value at once, {@link #build()} checks url against cluster. */
  public static final class Builder {
    private URI url;
    private RedisLogin urlLogin;
    private ClusterSeeds cluster = new ClusterSeeds(List.of(), RedisLogin.PLAIN);
    private Duration timeout = DEFAULT_TIMEOUT;
    private FailurePolicy onFailure = DEFAULT_ON_FAILURE;
    private double localShare = DEFAULT_LOCAL_SHARE;
    private int poolSize = DEFAULT_POOL_SIZE;
    private Duration reservationTtl = DEFAULT_RESERVATION_TTL;
    private boolean verifyHost = DEFAULT_VERIFY_HOST;

    private Builder() {}

    public Builder url(String url) {
      URI parsed = Urls.parse("url", url, SCHEMES, EXPECTED_URL);
      // Jedis takes the port from the URL and has no default for it.
      if (parsed.getPort() < 0) {
        throw new ConfigException("url", "must be " + EXPECTED_URL + ", was " + Urls.redacted(parsed));
      }
      this.urlLogin = RedisLogin.of("url", parsed);
      this.url = parsed;
      return this;
    }

    public Builder url(URI url) {
      return url(url.toString());
    }

    /**
     * Seed nodes as written: {@code host:port}, {@code [v6-address]:port}, or {@code
     * redis://[user:password@]host:port} / {@code rediss://...}, every entry with the same scheme
     * and credentials.
     */
    public Builder cluster(List<String> nodes) {
      this.cluster = ClusterSeeds.parse(nodes);
      return this;
    }

    public Builder timeout(Duration timeout) {
      Durations.requirePositive("timeout", timeout);
      if (timeout.toMillis() > Integer.MAX_VALUE) {
        throw new ConfigException("timeout", "is too long, was " + Durations.format(timeout));
      }
      this.timeout = timeout;
      return this;
    }

    public Builder onFailure(FailurePolicy onFailure) {
      this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
      return this;
    }

    public Builder localShare(double localShare) {
      if (!(localShare > 0 && localShare <= 1)) {
        throw new ConfigException("local-share", "must be in (0, 1], was " + localShare);
      }
      this.localShare = localShare;
      return this;
    }

    public Builder poolSize(int poolSize) {
      if (poolSize <= 0) {
        throw new ConfigException("pool-size", "must be > 0, was " + poolSize);
      }
      this.poolSize = poolSize;
      return this;
    }

    public Builder reservationTtl(Duration reservationTtl) {
      Durations.requirePositive("reservation-ttl", reservationTtl);
      this.reservationTtl = reservationTtl;
      return this;
    }

    public Builder verifyHost(boolean verifyHost) {
      this.verifyHost = verifyHost;
      return this;
    }

    public RedisConfig build() {
      if (url != null && !cluster.nodes().isEmpty()) {
        throw new ConfigException("url", "and cluster are both set; keep one of them");
      }
      if (url == null && cluster.nodes().isEmpty()) {
        throw new ConfigException("url", "or cluster is required when redis is configured");
      }
      return new RedisConfig(this);
    }
  }
}
