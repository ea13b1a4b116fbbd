package io.tollgate.testkit.redis;

import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.Jedis;

/**
 * One {@link RedisServer} per test class, started before the first test and closed after the last:
 *
 * <pre>{@code
 * @RegisterExtension static final RedisServerExtension redis = RedisServerExtension.standalone();
 * }</pre>
 *
 * <p>Register it on a {@code static} field; {@code @Nested} classes share their outer class's
 * server. Lives in test sources because junit-jupiter is a test-scope dependency of the testkit;
 * {@code @AutoClose static final RedisServer redis = RedisServer.start();} needs no extension.
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {

  private final Supplier<RedisServer> starter;
  private volatile RedisServer server;
  private volatile String owner; // unique id of the class context that started the server

  private RedisServerExtension(Supplier<RedisServer> starter) {
    this.starter = starter;
  }

  /** A server with the default binary and settings. */
  public static RedisServerExtension standalone() {
    return new RedisServerExtension(RedisServer::start);
  }

  /** A server built by {@code builder}, e.g. with an explicit binary or extra config. */
  public static RedisServerExtension of(RedisServer.Builder builder) {
    Objects.requireNonNull(builder, "builder");
    return new RedisServerExtension(builder::start);
  }

  public RedisServer server() {
    RedisServer current = server;
    if (current == null) {
      throw new IllegalStateException(
          "No server outside a test class: register RedisServerExtension on a static field");
    }
    return current;
  }

  public int port() {
    return server().port();
  }

  public Jedis jedis() {
    return server().jedis();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (server == null) {
      server = starter.get();
      owner = context.getUniqueId();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (context.getUniqueId().equals(owner)) {
      try {
        server.close();
      } finally {
        server = null;
        owner = null;
      }
    }
  }
}
