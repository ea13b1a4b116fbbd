package io.tollgate.agent.it.app;

import io.tollgate.gate.Tenants;

/**
 * The tenant an app binds while it works for one (as Tollgate's servlet filter does), through the
 * core the agent jar puts on the class path; only touched when {@code APP_TENANT} is set.
 */
final class AppTenant {

  private AppTenant() {}

  /** Binds {@code $APP_TENANT} on this thread until closed; nothing when it is not set. */
  static AutoCloseable bindFromEnvironment() {
    String tenant = System.getenv("APP_TENANT");
    if (tenant == null) {
      return () -> { };
    }
    Tenants.Scope scope = Tenants.bind(tenant);
    return scope::close;
  }
}
