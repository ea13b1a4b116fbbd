package io.tollgate.gate;

import java.util.Objects;
import java.util.Optional;

/**
 * The tenant on whose behalf the current thread works, and the user inside it when one is named,
 * so that the LLM calls it makes are charged to them. The servlet filter binds them for the length
 * of a request; the agent and Spring's clients read them when a call leaves. The ids are the ones
 * the filter charged (a header value that keeps {@link io.tollgate.config.TenantIdRule}, folded
 * with {@code tenants.case-insensitive}; an API key's hash): the gate folds them again, as the
 * configuration says, and hashes them before they reach Redis, logs or spans. An id bound by the
 * app's own code is not checked against the rule; the gate bounds how many it charges on their own
 * ({@code tenants.max-tracked}).
 *
 * <p>With the agent attached the binding lives in the agent's bridge ({@link AttachedAgent}), so
 * that the agent's relocated copy of this class reads what the app's copy bound.
 */
public final class Tenants {

  private static final ThreadLocal<String> CURRENT = AttachedAgent.sharedTenant().orElseGet(ThreadLocal::new);
  private static final ThreadLocal<String> USER = AttachedAgent.sharedUser().orElseGet(ThreadLocal::new);

  private Tenants() {}

  /** Binds {@code tenantId}, and no user, to this thread until the returned scope is closed. */
  public static Scope bind(String tenantId) {
    return bind(tenantId, null);
  }

  /**
   * Binds {@code tenantId} and {@code userId}, a user inside that tenant ({@code
   * tenants.user-header}), to this thread until the returned scope is closed.
   *
   * @param userId the user, or null to bind the tenant alone (what {@link #currentUser()} gave on
   *     the thread a task is handed over from)
   */
  public static Scope bind(String tenantId, String userId) {
    Objects.requireNonNull(tenantId, "tenantId");
    String previousTenant = CURRENT.get();
    String previousUser = USER.get();
    CURRENT.set(tenantId);
    set(USER, userId); // an outer binding's user never leaks into another tenant's
    return () -> {
      set(CURRENT, previousTenant);
      set(USER, previousUser);
    };
  }

  private static void set(ThreadLocal<String> local, String value) {
    if (value == null) {
      local.remove();
    } else {
      local.set(value);
    }
  }

  /** The tenant bound to this thread, if any. */
  public static Optional<String> current() {
    return Optional.ofNullable(CURRENT.get());
  }

  /** The user bound inside {@link #current()}, if any. */
  public static Optional<String> currentUser() {
    return CURRENT.get() == null ? Optional.empty() : Optional.ofNullable(USER.get());
  }

  /**
   * Runs {@code task} with the tenant (and user) that were current when this was called: for async
   * hand-offs.
   */
  public static Runnable propagate(Runnable task) {
    String tenant = CURRENT.get();
    if (tenant == null) {
      return task;
    }
    String user = USER.get();
    return () -> {
      try (Scope ignored = bind(tenant, user)) {
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
