package io.tollgate.gate;

import java.util.Objects;
import java.util.Optional;

/**
 * The tenant on whose behalf the current thread works, so that the LLM calls it makes are charged
 * to that tenant. The servlet filter binds it for the length of a request; the agent and Spring's
 * clients read it when a call leaves. The id is the one the filter charged (a header value that
 * keeps {@link io.tollgate.config.TenantIdRule}, folded with {@code tenants.case-insensitive}; an
 * API key's hash): the gate folds it again, as the configuration says, and hashes it before it
 * reaches Redis, logs or spans. An id bound by the app's own code is not checked against the rule;
 * the gate bounds how many it charges on their own ({@code tenants.max-tracked}).
 *
 * <p>With the agent attached the binding lives in the agent's bridge ({@link AttachedAgent}), so
 * that the agent's relocated copy of this class reads what the app's copy bound.
 */
public final class Tenants {

  private static final ThreadLocal<String> CURRENT = AttachedAgent.sharedTenant().orElseGet(ThreadLocal::new);

  private Tenants() {}

  /** Binds {@code tenantId} to this thread until the returned scope is closed. */
  public static Scope bind(String tenantId) {
    Objects.requireNonNull(tenantId, "tenantId");
    String previous = CURRENT.get();
    CURRENT.set(tenantId);
    return () -> {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    };
  }

  /** The tenant bound to this thread, if any. */
  public static Optional<String> current() {
    return Optional.ofNullable(CURRENT.get());
  }

  /** Runs {@code task} with the tenant that was current when this was called: for async hand-offs. */
  public static Runnable propagate(Runnable task) {
    String tenant = CURRENT.get();
    if (tenant == null) {
      return task;
    }
    return () -> {
      try (Scope ignored = bind(tenant)) {
        task.run();
      }
    };
  }

  /** A binding to undo; closing restores what was bound before. */
  @FunctionalInterface
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }
}
