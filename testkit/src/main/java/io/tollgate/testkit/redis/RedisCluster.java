package io.tollgate.testkit.redis;

import io.tollgate.testkit.redis.internal.Await;
import io.tollgate.testkit.redis.internal.ClusterAgreement;
import io.tollgate.testkit.redis.internal.ClusterFormation;
import io.tollgate.testkit.redis.internal.ClusterNodeLine;
import io.tollgate.testkit.redis.internal.ClusterNodeLine.SlotRange;
import io.tollgate.testkit.redis.internal.ClusterProbe;
import io.tollgate.testkit.redis.internal.FreePorts;
import io.tollgate.testkit.tls.TestCertificate;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A throw-away, real Redis Cluster for tests: 3 masters, each with 1 replica, on 6 loopback ports.
 *
 * <p>Each node is a {@link RedisServer} (same no-persistence and no-orphan guarantees) with a short
 * {@code cluster-node-timeout} and {@code cluster-replica-validity-factor 0}, so that {@link
 * #killMaster} followed by {@link #awaitPromotion} exercises a real failover in a few seconds.
 * Formation takes about 3 s (a Redis master refuses to report {@code ok} in its first 2 s),
 * so share one cluster per test class:
 *
 * <pre>{@code
 * @AutoClose static final RedisCluster cluster = RedisCluster.start();
 *
 * @Test void limitsAcrossSlots() {
 *   try (RedisClusterClient client = cluster.client()) { ... }
 * }
 * }</pre>
 *
 * <p>With {@link Builder#password} every node requires the password ({@code requirepass}) and
 * replicas sign in with it ({@code masterauth}); with {@link Builder#tls} every node speaks only
 * TLS, to clients, to its replicas and on the cluster bus ({@code tls-cluster}). The fixture's own
 * clients follow; {@link #seedUris()} gives the seeds the way a client configuration writes them.
 *
 * <p>Topology queries ({@link #masters()}, {@link #masterForSlot}) report the cluster as a running
 * node currently sees it, so they follow failovers. Lifecycle methods are serialised.
 */
public final class RedisCluster implements AutoCloseable {

  public static final int MASTERS = 3;
  public static final Duration DEFAULT_NODE_TIMEOUT = Duration.ofMillis(1_000);
  public static final Duration DEFAULT_FORMATION_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_FAILOVER_TIMEOUT = Duration.ofSeconds(30);

  private final List<RedisServer> nodes; // formation's masters, then their replicas, same order
  private final Map<HostAndPort, String> nodeIds;
  private final Duration failoverTimeout;
  private final String password; // null: none
  private final TestCertificate tls; // null: plain TCP
  private final Map<HostAndPort, List<SlotRange>> slotsOfKilledMasters = new HashMap<>(); // this
  private boolean closed; // guarded by this

  private RedisCluster(List<RedisServer> nodes, Map<HostAndPort, String> nodeIds, Builder builder) {
    this.nodes = List.copyOf(nodes);
    this.nodeIds = Map.copyOf(nodeIds);
    this.failoverTimeout = builder.failoverTimeout;
    this.password = builder.password;
    this.tls = builder.tls;
  }

  /** Starts and forms a cluster with the default binary and settings. */
  public static RedisCluster start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** All six nodes, running or not: the formation's masters first, then their replicas. */
  public List<HostAndPort> nodes() {
    return nodes.stream().map(RedisServer::hostAndPort).toList();
  }

  /** The running nodes, as seeds for a cluster client. */
  public Set<HostAndPort> seeds() {
    Set<HostAndPort> seeds = new LinkedHashSet<>();
    nodes.stream().filter(RedisServer::isRunning).forEach(node -> seeds.add(node.hostAndPort()));
    return seeds;
  }

  /** The running nodes as seeds for Tollgate's {@code RedisConnection.cluster}. */
  public List<InetSocketAddress> seedAddresses() {
    return seeds().stream()
        .map(seed -> InetSocketAddress.createUnresolved(seed.getHost(), seed.getPort()))
        .toList();
  }

  /**
   * The running nodes as URLs, {@code redis://127.0.0.1:<port>}, or {@code rediss://} with TLS,
   * with {@code :<password>@} when the cluster requires one.
   */
  public List<URI> seedUris() {
    return nodes.stream().filter(RedisServer::isRunning).map(RedisServer::uri).toList();
  }

  /** The password every node requires, if any. */
  public Optional<String> password() {
    return Optional.ofNullable(password);
  }

  /** The certificate every node presents, if the cluster speaks TLS. */
  public Optional<TestCertificate> tls() {
    return Optional.ofNullable(tls);
  }

  /** The masters serving slots now, ordered by their first slot. */
  public List<HostAndPort> masters() {
    return currentView().stream()
        .filter(line -> line.isMaster() && !line.isFailing() && line.slotCount() > 0)
        .sorted(Comparator.comparingInt(line -> line.slotRanges().get(0).first()))
        .map(ClusterNodeLine::address)
        .toList();
  }

  /** The replicas that are up now. */
  public List<HostAndPort> replicas() {
    return currentView().stream()
        .filter(line -> line.isReplica() && !line.isFailing())
        .map(ClusterNodeLine::address)
        .toList();
  }

  /** The replicas that are up now and replicate {@code master}. */
  public List<HostAndPort> replicasOf(HostAndPort master) {
    String masterId = idOf(master);
    return currentView().stream()
        .filter(line -> line.isReplica() && !line.isFailing() && line.masterId().equals(masterId))
        .map(ClusterNodeLine::address)
        .toList();
  }

  /** The node that owns {@code slot}, as the cluster sees it now. */
  public HostAndPort masterForSlot(int slot) {
    if (slot < 0 || slot >= ClusterFormation.SLOTS) {
      throw new IllegalArgumentException("slot must be in 0-16383, was " + slot);
    }
    return currentView().stream()
        .filter(line -> line.isMaster() && line.owns(slot))
        .map(ClusterNodeLine::address)
        .findFirst()
        .orElseThrow(() -> new RedisFixtureException("No node owns slot " + slot));
  }

  /** The node that owns {@code key}'s slot; a {@code {hash tag}} decides the slot if present. */
  public HostAndPort masterForKey(String key) {
    return masterForSlot(JedisClusterCRC16.getSlot(key));
  }

  /** The fixture behind one node, e.g. for {@code node(hp).jedis()}, {@code pid()} or its log. */
  public RedisServer node(HostAndPort address) {
    return nodes.stream()
        .filter(node -> node.hostAndPort().equals(address))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(
            "node must be one of " + nodes() + ", was " + address));
  }

  /** A new client seeded with every running node; the caller closes it. */
  public RedisClusterClient client() {
    DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(1_000)
        .socketTimeoutMillis(2_000)
        .password(password);
    if (tls != null) {
      config.ssl(true).sslSocketFactory(tls.socketFactory()).sslParameters(tls.clientParameters());
    }
    return RedisClusterClient.builder()
        .nodes(seeds())
        .clientConfig(config.build())
        .maxAttempts(10)
        .maxTotalRetriesDuration(failoverTimeout)
        .build();
  }

  /**
   * SIGKILLs a master serving slots, as a crash would. Its replica takes over after about the node
   * timeout plus an election delay; {@link #awaitPromotion} waits for that.
   */
  public synchronized void killMaster(HostAndPort master) {
    ClusterNodeLine line = currentView().stream()
        .filter(candidate -> candidate.address().equals(master))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(
            "master must be one of " + nodes() + ", was " + master));
    if (!line.isMaster() || line.isFailing() || line.slotCount() == 0) {
      throw new IllegalArgumentException(
          "master must be a running master serving slots, one of " + masters() + ", was " + master);
    }
    slotsOfKilledMasters.put(master, line.slotRanges());
    node(master).kill();
  }

  /**
   * Waits until another node owns every slot {@code killedMaster} had, and every running node
   * agrees on that and reports {@code cluster_state:ok}.
   *
   * @return the promoted node
   * @throws RedisFixtureException if that does not happen within the failover timeout
   */
  public synchronized HostAndPort awaitPromotion(HostAndPort killedMaster) {
    List<SlotRange> slots = slotsOfKilledMasters.get(killedMaster);
    if (slots == null) {
      throw new IllegalStateException(killedMaster + " was not killed with killMaster()");
    }
    String killedId = idOf(killedMaster);
    return Await.until(
        "a replica of " + killedMaster + " to take over its slots " + describe(slots),
        failoverTimeout,
        () -> ClusterAgreement.agreedOwner(nodes, slots)
            .filter(owner -> !owner.id().equals(killedId))
            .map(ClusterNodeLine::address),
        () -> ClusterProbe.describe(nodes));
  }

  /**
   * Restarts a stopped or killed node on its port with its cluster identity (its {@code
   * nodes.conf} is kept), and waits until every running node sees it connected and healthy. A
   * former master that lost its slots rejoins as a replica of its successor.
   */
  public synchronized void restartNode(HostAndPort address) {
    RedisServer node = node(address);
    node.restart();
    slotsOfKilledMasters.remove(address);
    Await.untilTrue(
        address + " to rejoin with cluster_state:ok on every running node",
        failoverTimeout,
        () -> ClusterAgreement.isSettled(nodes),
        () -> ClusterProbe.describe(nodes));
  }

  /** {@code SCRIPT FLUSH} on every running node: scripts are cached per node. */
  public void flushScripts() {
    nodes.stream().filter(RedisServer::isRunning).forEach(RedisServer::flushScripts);
  }

  /** {@code FLUSHALL} on every master; replicas follow. */
  public void flushAll() {
    masters().forEach(master -> node(master).flushAll());
  }

  /** Kills every node and deletes their directories. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    // A throw-away cluster needs no graceful shutdown, and SIGKILL spares Redis 7 masters their
    // wait for lagging replicas.
    nodes.forEach(RedisServer::kill);
    nodes.forEach(RedisServer::close);
  }

  @Override
  public String toString() {
    return "RedisCluster" + nodes();
  }

  private List<ClusterNodeLine> currentView() {
    RedisFixtureException lastFailure = null;
    for (RedisServer node : nodes) {
      if (node.isRunning()) {
        try {
          return ClusterProbe.view(node);
        } catch (RedisFixtureException e) {
          lastFailure = e; // died between the check and the call: ask the next one
        }
      }
    }
    throw new RedisFixtureException("No node of " + this + " is running", lastFailure);
  }

  private String idOf(HostAndPort address) {
    String id = nodeIds.get(address);
    if (id == null) {
      throw new IllegalArgumentException("node must be one of " + nodes() + ", was " + address);
    }
    return id;
  }

  private static String describe(List<SlotRange> slots) {
    return slots.stream()
        .map(range -> range.first() + "-" + range.last())
        .toList()
        .toString();
  }

  /** Settings for a {@link RedisCluster}; every setting has a sensible default. */
  public static final class Builder {

    private RedisBinary binary;
    private Duration nodeTimeout = DEFAULT_NODE_TIMEOUT;
    private Duration formationTimeout = DEFAULT_FORMATION_TIMEOUT;
    private Duration failoverTimeout = DEFAULT_FAILOVER_TIMEOUT;
    private String password;
    private TestCertificate tls;

    private Builder() {}

    /** The binary every node runs; by default {@link RedisBinary#resolve()}. */
    public Builder binary(RedisBinary binary) {
      this.binary = Objects.requireNonNull(binary, "binary");
      return this;
    }

    /**
     * {@code cluster-node-timeout}: how long a node may be unreachable before it is suspected
     * failed. Short makes failover tests fast; too short flags healthy nodes on a loaded machine.
     * Default 1 s.
     */
    public Builder nodeTimeout(Duration nodeTimeout) {
      this.nodeTimeout = positive("nodeTimeout", nodeTimeout);
      return this;
    }

    /** How long forming the cluster may take once its nodes run; default 30 s. */
    public Builder formationTimeout(Duration formationTimeout) {
      this.formationTimeout = positive("formationTimeout", formationTimeout);
      return this;
    }

    /** How long a failover or a node's rejoining may take; default 30 s. */
    public Builder failoverTimeout(Duration failoverTimeout) {
      this.failoverTimeout = positive("failoverTimeout", failoverTimeout);
      return this;
    }

    /**
     * Every node requires {@code password} ({@code requirepass}) and replicas sign in to their
     * masters with it ({@code masterauth}).
     */
    public Builder password(String password) {
      Objects.requireNonNull(password, "password");
      if (password.isEmpty()) {
        throw new IllegalArgumentException("password must not be empty");
      }
      this.password = password;
      return this;
    }

    /**
     * Every node speaks only TLS with {@code certificate}: to clients, to its replicas and on the
     * cluster bus, so {@code CLUSTER SLOTS} names TLS ports.
     */
    public Builder tls(TestCertificate certificate) {
      this.tls = Objects.requireNonNull(certificate, "certificate");
      return this;
    }

    /** Starts six nodes and forms the cluster; returns once every node reports it healthy. */
    public RedisCluster start() {
      RedisBinary chosen = binary != null ? binary : RedisBinary.resolve();
      RedisServer.Builder node = RedisServer.builder()
          .binary(chosen)
          .ports(FreePorts::forClusterNode)
          .config("cluster-enabled", "yes")
          .config("cluster-config-file", "nodes.conf") // each node has its own directory
          .config("cluster-node-timeout", String.valueOf(nodeTimeout.toMillis()))
          .config("cluster-announce-ip", RedisServer.HOST)
          // Let any replica take over, however stale: tests want a failover, not safety.
          .config("cluster-replica-validity-factor", "0")
          // Sync replicas straight over the socket, at once (Redis 7 would wait 5 s by default).
          .config("repl-diskless-sync", "yes")
          .config("repl-diskless-sync-delay", "0");
      if (password != null) {
        node.password(password);
      }
      if (tls != null) {
        node.tls(tls).config("tls-cluster", "yes");
      }
      List<RedisServer> started = NodeStarter.startAll(node, 2 * MASTERS);
      try {
        Map<HostAndPort, String> ids = ClusterFormation.form(
            started.subList(0, MASTERS), started.subList(MASTERS, 2 * MASTERS), formationTimeout);
        return new RedisCluster(started, ids, this);
      } catch (RuntimeException e) {
        started.forEach(RedisServer::close);
        throw e;
      }
    }

    private static Duration positive(String name, Duration value) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be > 0, was " + value);
      }
      return value;
    }
  }
}
