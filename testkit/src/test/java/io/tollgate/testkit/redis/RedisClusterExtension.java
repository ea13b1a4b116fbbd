package io.tollgate.testkit.redis;

import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link RedisCluster} per test class, formed before the first test and closed after the last:
 *
 * <pre>{@code
 * @RegisterExtension static final RedisClusterExtension redis = RedisClusterExtension.ofDefaults();
 * }</pre>
 *
 * <p>Formation takes a few seconds, hence once per class; tests that kill nodes should form their
 * own cluster instead. Register it on a {@code static} field; {@code @Nested} classes share it.
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {

  private final Supplier<RedisCluster> starter;
  private volatile RedisCluster cluster;
  private volatile String owner; // unique id of the class context that formed the cluster

  private RedisClusterExtension(Supplier<RedisCluster> starter) {
    this.starter = starter;
  }

  /** A cluster with the default binary and settings. */
  public static RedisClusterExtension ofDefaults() {
    return new RedisClusterExtension(RedisCluster::start);
  }

  /** A cluster built by {@code builder}, e.g. with a different node timeout. */
  public static RedisClusterExtension of(RedisCluster.Builder builder) {
    Objects.requireNonNull(builder, "builder");
    return new RedisClusterExtension(builder::start);
  }

  public RedisCluster cluster() {
    RedisCluster current = cluster;
    if (current == null) {
      throw new IllegalStateException(
          "No cluster outside a test class: register RedisClusterExtension on a static field");
    }
    return current;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (cluster == null) {
      cluster = starter.get();
      owner = context.getUniqueId();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (context.getUniqueId().equals(owner)) {
      try {
        cluster.close();
      } finally {
        cluster = null;
        owner = null;
      }
    }
  }
}
