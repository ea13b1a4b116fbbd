package io.tollgate.testkit.redis;

import io.tollgate.testkit.redis.internal.Await;
import io.tollgate.testkit.redis.internal.FreePorts;
import io.tollgate.testkit.redis.internal.ProcessReaper;
import io.tollgate.testkit.redis.internal.RedisInfo;
import io.tollgate.testkit.redis.internal.WatchedProcess;
import io.tollgate.testkit.tls.TestCertificate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.ShutdownParams;

/**
 * A throw-away, real {@code redis-server} on a free loopback port, for tests.
 *
 * <p>Nothing is persisted ({@code save ""}, {@code appendonly no}, a private temp {@code dir}), so
 * every start, including {@link #restart()}, begins empty. Every process started here dies with the
 * JVM, even one killed with SIGKILL (see {@code internal/watchdog.sh}). Typical use, one server per
 * test class, closed by JUnit after the last test:
 *
 * <pre>{@code
 * @AutoClose static final RedisServer redis = RedisServer.start();
 *
 * @Test void countsRequests() {
 *   try (Jedis jedis = redis.jedis()) { ... }
 * }
 * }</pre>
 *
 * <p>A server may require a password ({@link Builder#password}) and speak only TLS ({@link
 * Builder#tls}); the fixture's own clients ({@link #jedis()}, its probes) then sign in and trust
 * the test certificate by themselves, and {@link #uri()} carries both.
 *
 * <p>All methods are thread-safe; lifecycle changes ({@link #stop()}, {@link #restart()}, {@link
 * #kill()}, {@link #close()}) are serialised.
 */
public final class RedisServer implements AutoCloseable {

  /** Every server binds this address only: tests never expose Redis beyond the machine. */
  public static final String HOST = "127.0.0.1";

  public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(10);

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
  private static final int PORT_ATTEMPTS = 5;
  private static final String PORT_IN_USE = "Address already in use";
  private static final String DB_FILE = "dump.rdb";
  // The fixture's own clients must keep working: these are set through the builder's methods.
  private static final Set<String> MANAGED_DIRECTIVES = Set.of("port", "bind", "dir", "daemonize",
      "logfile", "dbfilename", "requirepass", "masterauth", "tls-port");

  private final RedisBinary binary;
  private final List<String> directives;
  private final String password; // null: none required
  private final TestCertificate tls; // null: plain TCP
  private final JedisClientConfig clientConfig;
  private final JedisClientConfig probeConfig;
  private final Duration startupTimeout;
  private final Path directory;
  private final int port;
  private volatile WatchedProcess process; // written only while holding this
  private boolean closed; // guarded by this

  private RedisServer(Builder builder, RedisBinary binary, Path directory, int port) {
    this.binary = binary;
    this.directives = List.copyOf(builder.directives);
    this.password = builder.password;
    this.tls = builder.tls;
    this.clientConfig = signedIn(DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(2_000)
        .socketTimeoutMillis(10_000));
    // Probes run every few ms while a server boots: fail fast (a port squatted by some other
    // program may accept the connection and never answer), and skip the CLIENT SETINFO round trip.
    this.probeConfig = signedIn(DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(250)
        .socketTimeoutMillis(250)
        .clientSetInfoConfig(ClientSetInfoConfig.DISABLED));
    this.startupTimeout = builder.startupTimeout;
    this.directory = directory;
    this.port = port;
  }

  /** Starts a server with the default binary ({@link RedisBinary#resolve()}) and settings. */
  public static RedisServer start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  public String host() {
    return HOST;
  }

  /** The port; it never changes, not even across {@link #restart()}. */
  public int port() {
    return port;
  }

  public HostAndPort hostAndPort() {
    return new HostAndPort(HOST, port);
  }

  /**
   * {@code redis://127.0.0.1:<port>}, the form most client configurations take: {@code rediss://}
   * with {@link Builder#tls}, and {@code :<password>@} with {@link Builder#password}.
   */
  public URI uri() {
    return URI.create((tls != null ? "rediss" : "redis") + "://"
        + (password != null ? ":" + password + "@" : "") + HOST + ":" + port);
  }

  /** The password every client must give, if the server requires one. */
  public Optional<String> password() {
    return Optional.ofNullable(password);
  }

  /** The certificate the server presents, if it speaks TLS (and only TLS). */
  public Optional<TestCertificate> tls() {
    return Optional.ofNullable(tls);
  }

  public RedisBinary binary() {
    return binary;
  }

  /** The server's private working directory: its log, and a Cluster node's {@code nodes.conf}. */
  public Path directory() {
    return directory;
  }

  /** The PID of the current {@code redis-server} process, or of the last one if none runs now. */
  public long pid() {
    return process.pid();
  }

  public boolean isRunning() {
    WatchedProcess current = process;
    return current != null && current.isAlive();
  }

  /** A new client connected to this server; the caller closes it. */
  public Jedis jedis() {
    return new Jedis(HOST, port, clientConfig);
  }

  /** {@code redis_version} from {@code INFO server}, e.g. {@code 7.0.15}. */
  public String version() {
    try (Jedis jedis = jedis()) {
      return RedisInfo.field(jedis.info("server"), "redis_version");
    }
  }

  /** {@code SCRIPT FLUSH}: cached Lua scripts are forgotten, so EVALSHA answers NOSCRIPT. */
  public void flushScripts() {
    try (Jedis jedis = jedis()) {
      jedis.scriptFlush();
    }
  }

  /** {@code FLUSHALL}: every key of every database is deleted. */
  public void flushAll() {
    try (Jedis jedis = jedis()) {
      jedis.flushAll();
    }
  }

  /** The last few kilobytes of the server's log, for diagnosing a failed test. */
  public String logTail() {
    return WatchedProcess.logTail(logFile());
  }

  /**
   * Stops the server ({@code SHUTDOWN NOSAVE}, SIGKILL if it does not exit in time) and waits until
   * the process is gone. Does nothing if it is not running. {@link #restart()} brings it back.
   */
  public synchronized void stop() {
    if (!isRunning()) {
      return;
    }
    try (Jedis jedis = new Jedis(HOST, port, probeConfig)) {
      ShutdownParams params = ShutdownParams.shutdownParams().nosave();
      jedis.shutdown(binary.majorVersion() >= 7 ? params.now() : params);
    } catch (JedisException expectedOrIrrelevant) {
      // The server closes the connection as it exits; any other failure is settled by the kill.
    }
    if (!process.awaitExit(STOP_TIMEOUT)) {
      process.killForcibly(STOP_TIMEOUT);
    }
  }

  /**
   * Stops the server if it runs, then starts a fresh one on the same port. Nothing survives the
   * restart: the fixture never saves data.
   *
   * @throws RedisFixtureException if the new process does not answer in time, for instance
   *     because another process took the port meanwhile
   */
  public synchronized void restart() {
    if (closed) {
      throw new IllegalStateException(this + " is closed and cannot be restarted");
    }
    stop();
    try {
      boot();
    } catch (PortTaken e) {
      throw new RedisFixtureException(
          "Cannot restart on port " + port + ": another process took it\n" + e.getMessage());
    }
  }

  /** SIGKILLs the server, as a crash would, and waits until the process is gone. */
  public synchronized void kill() {
    if (isRunning()) {
      process.killForcibly(STOP_TIMEOUT);
    }
  }

  /** Stops the server and deletes its directory; it cannot be restarted afterwards. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      stop();
    } finally {
      ProcessReaper.delete(directory);
      FreePorts.release(port);
    }
  }

  @Override
  public String toString() {
    return "RedisServer[" + HOST + ":" + port + ", " + binary + "]";
  }

  private static RedisServer startOnFreePort(Builder builder) {
    RedisBinary binary = builder.binary != null ? builder.binary : RedisBinary.resolve();
    Path directory = ProcessReaper.createDirectory("tollgate-redis-");
    PortTaken lastTaken = null;
    try {
      for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
        RedisServer server = new RedisServer(builder, binary, directory, builder.ports.getAsInt());
        try {
          server.boot();
          return server;
        } catch (PortTaken e) {
          lastTaken = e; // someone bound the port between our probe and redis-server: next one
        }
      }
    } catch (RuntimeException e) {
      ProcessReaper.delete(directory);
      throw e;
    }
    ProcessReaper.delete(directory);
    throw new RedisFixtureException(
        "redis-server found its port taken " + PORT_ATTEMPTS + " times in a row\n"
            + lastTaken.getMessage());
  }

  /** Launches the process and waits for PING. The caller holds the lock or is the factory. */
  private void boot() {
    Path log = logFile();
    try {
      Files.createDirectories(directory); // gone if a stuck process made us pull the lifeline
      Files.deleteIfExists(log); // a tail of the previous run would only mislead
      Files.deleteIfExists(directory.resolve(DB_FILE)); // "every start begins empty", guaranteed
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    WatchedProcess started = WatchedProcess.launch(command(), log, directory);
    process = started;
    boolean ready;
    try {
      ready = Await.until(
          "redis-server on " + HOST + ":" + port + " to answer PING",
          startupTimeout,
          () -> started.isAlive() ? ping().map(pong -> true) : Optional.of(false),
          () -> "redis-server log (" + log + "):\n" + started.logTail());
    } catch (RuntimeException e) {
      started.killForcibly(STOP_TIMEOUT);
      throw e;
    }
    if (!ready) {
      started.killForcibly(STOP_TIMEOUT);
      String tail = started.logTail();
      String failure = "redis-server (" + binary + ") exited during startup on port " + port
          + "; its log (" + log + "):\n" + tail;
      throw tail.contains(PORT_IN_USE)
          ? new PortTaken(failure)
          : new RedisFixtureException(failure);
    }
  }

  private Optional<String> ping() {
    try (Jedis jedis = new Jedis(HOST, port, probeConfig)) {
      return Optional.of(jedis.ping());
    } catch (JedisException notYet) {
      return Optional.empty(); // not listening yet, or still loading
    }
  }

  private JedisClientConfig signedIn(DefaultJedisClientConfig.Builder config) {
    if (tls != null) {
      config.ssl(true).sslSocketFactory(tls.socketFactory()).sslParameters(tls.clientParameters());
    }
    return config.password(password).build();
  }

  private List<String> command() {
    List<String> command = new ArrayList<>(List.of(binary.path().toString()));
    if (tls == null) {
      command.addAll(List.of("--port", String.valueOf(port)));
    } else {
      command.addAll(List.of(
          "--port", "0", // no plain TCP at all: a client that forgets TLS fails, as it should
          "--tls-port", String.valueOf(port),
          "--tls-cert-file", tls.certificateFile().toString(),
          "--tls-key-file", tls.privateKeyFile().toString(),
          "--tls-ca-cert-file", tls.certificateFile().toString(),
          "--tls-auth-clients", "no", // clients show no certificate, as with a managed Redis
          "--tls-replication", "yes"));
    }
    if (password != null) {
      // masterauth too: a replica signs in to its master with the same password
      command.addAll(List.of("--requirepass", password, "--masterauth", password));
    }
    command.addAll(List.of(
        "--bind", HOST,
        "--protected-mode", "no",
        "--daemonize", "no",
        "--dir", directory.toString(),
        "--dbfilename", DB_FILE,
        "--save", "",
        "--appendonly", "no"));
    command.addAll(directives);
    return command;
  }

  private Path logFile() {
    return directory.resolve("redis.log");
  }

  /** The port was taken between choosing it and binding it: worth another port, not a failure. */
  private static final class PortTaken extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PortTaken(String message) {
      super(message, null, false, false);
    }
  }

  /** Settings for a {@link RedisServer}; every setting has a sensible default. */
  public static final class Builder {

    private RedisBinary binary;
    private final List<String> directives = new ArrayList<>();
    private String password;
    private TestCertificate tls;
    private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
    private IntSupplier ports = FreePorts::forStandalone;

    private Builder() {}

    /** The binary to run; by default {@link RedisBinary#resolve()}. */
    public Builder binary(RedisBinary binary) {
      this.binary = Objects.requireNonNull(binary, "binary");
      return this;
    }

    /**
     * Adds a redis.conf directive, e.g. {@code config("maxmemory-policy", "allkeys-lru")}. The
     * fixture owns {@code port}, {@code bind}, {@code dir}, {@code daemonize}, {@code logfile},
     * {@code dbfilename}, and, through {@link #password} and {@link #tls}, {@code requirepass},
     * {@code masterauth} and {@code tls-port}.
     */
    public Builder config(String directive, String... values) {
      Objects.requireNonNull(directive, "directive");
      String name = directive.startsWith("--") ? directive.substring(2) : directive;
      if (name.isBlank() || MANAGED_DIRECTIVES.contains(name)) {
        throw new IllegalArgumentException(
            "config directive must be a redis.conf directive other than " + MANAGED_DIRECTIVES
                + ", was '" + directive + "'");
      }
      directives.add("--" + name);
      directives.addAll(List.of(values));
      return this;
    }

    /**
     * {@code requirepass} (and {@code masterauth}, for replicas): clients must sign in as the
     * {@code default} user with {@code password}. The fixture's own clients do.
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
     * TLS only: the port is a {@code tls-port} presenting {@code certificate}, with no plain TCP
     * port, and replication runs over TLS too. Clients need not show a certificate.
     */
    public Builder tls(TestCertificate certificate) {
      this.tls = Objects.requireNonNull(certificate, "certificate");
      return this;
    }

    /** How long a start or restart may take before it fails; default 10 s. */
    public Builder startupTimeout(Duration startupTimeout) {
      Objects.requireNonNull(startupTimeout, "startupTimeout");
      if (startupTimeout.isNegative() || startupTimeout.isZero()) {
        throw new IllegalArgumentException("startupTimeout must be > 0, was " + startupTimeout);
      }
      this.startupTimeout = startupTimeout;
      return this;
    }

    /** Where ports come from: Cluster nodes need a free bus port too; tests force a taken one. */
    Builder ports(IntSupplier ports) {
      this.ports = Objects.requireNonNull(ports, "ports");
      return this;
    }

    /** Starts the server and waits until it answers PING. */
    public RedisServer start() {
      return startOnFreePort(this);
    }
  }
}
