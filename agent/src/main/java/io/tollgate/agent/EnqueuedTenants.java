package io.tollgate.agent;

import io.tollgate.gate.Tenants;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * The tenant (and the user inside it) bound ({@link Tenants#bind}) on the thread that handed an
 * asynchronous call to its client (OkHttp's {@code enqueue}), kept for the client's thread that
 * later runs it: the call is charged to the tenant that made it, not to whoever the dispatcher
 * thread serves. Keyed by the client's call object, weakly: a call cancelled before it ran leaves
 * nothing behind.
 */
public final class EnqueuedTenants {

  private static final Map<Object, Bound> BY_CALL =
      Collections.synchronizedMap(new WeakHashMap<>());
  private static final Tenants.Scope NOTHING_BOUND = () -> { };

  /** @param user null when the tenant was bound alone */
  private record Bound(String tenant, String user) {}

  private EnqueuedTenants() {}

  /**
   * Called where the app enqueues {@code call}: keeps the tenant of this thread, if any. While the
   * agent starts, the app's thread waits here for it ({@link AgentGates#gate}), so the client's
   * thread that runs the call never does.
   */
  public static void remember(Object call) {
    AgentGates.gate();
    Optional<String> tenant = Tenants.current();
    if (tenant.isPresent()) {
      BY_CALL.put(call, new Bound(tenant.get(), Tenants.currentUser().orElse(null)));
    }
  }

  /**
   * Binds, on the thread running {@code call}, the tenant that was bound where it was enqueued
   * (once: the entry is taken); nothing when there was none.
   */
  public static Tenants.Scope bindFor(Object call) {
    Bound bound = BY_CALL.remove(call);
    return bound == null ? NOTHING_BOUND : Tenants.bind(bound.tenant(), bound.user());
  }
}
