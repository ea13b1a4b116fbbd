package io.tollgate.agent.it.app;

import io.tollgate.gate.Tenants;

/**
 * The tenant an app binds while it works for one (as Tollgate's servlet filter does), through the
 * core on the app's own class path (the agent's copy is relocated): the two meet in the agent's
 * bridge. Only loaded when the app is asked to bind one: an app
 * run in a loader of its own ({@code ClassLoadersIT}) never needs it.
 */
final class AppTenant {

  private AppTenant() {}

  /** Binds {@code tenant} on this thread until closed. */
  static AutoCloseable bind(String tenant) {
    Tenants.Scope scope = Tenants.bind(tenant);
    return scope::close;
  }
}
