package io.tollgate.agent.telemetry;

import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * Finds the {@code GlobalOpenTelemetry} the app or the OpenTelemetry Java agent has set, without
 * ever setting it: first in the app's own API (the calling thread's context class loader, else the
 * system class loader), then in the OpenTelemetry Java agent's copy on the boot class path (that
 * agent registers its SDK there; an app's own API calls are bridged into it). Asked on each record
 * until one is set, so an app that registers its SDK after the agent started is still followed;
 * once found, it is kept.
 */
final class AppGlobal {

  /** Where the OpenTelemetry Java agent keeps its relocated API, on the boot class path. */
  private static final String OTEL_AGENT_PREFIX =
      String.join(".", "io", "opentelemetry", "javaagent", "shaded", "");

  private volatile BridgedOpenTelemetry found;
  /** The API of the class loader asked last: most apps have just one. */
  private volatile LoaderApi last;
  private volatile Optional<AppApi> bootstrap;
  private final Map<ClassLoader, Optional<AppApi>> byLoader = new WeakHashMap<>();

  /** The app's global instance, bridged, or null while none is set. */
  BridgedOpenTelemetry find() {
    BridgedOpenTelemetry known = found;
    if (known != null) {
      return known;
    }
    Optional<AppApi> app = appApi();
    Object global = app.map(AppApi::globalIfSet).orElse(null);
    AppApi api = app.orElse(null);
    if (global == null) {
      Optional<AppApi> boot = bootstrapApi();
      api = boot.orElse(null);
      global = boot.map(AppApi::globalIfSet).orElse(null);
    }
    if (global == null) {
      return null;
    }
    synchronized (this) {
      if (found == null) {
        found = new BridgedOpenTelemetry(api, global);
      }
      return found;
    }
  }

  /** What {@link #find()} has found so far, without looking. */
  BridgedOpenTelemetry found() {
    return found;
  }

  private Optional<AppApi> appApi() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = ClassLoader.getSystemClassLoader();
    }
    LoaderApi known = last;
    if (known != null && known.loader == loader) {
      return known.api;
    }
    Optional<AppApi> api;
    synchronized (byLoader) {
      api = byLoader.computeIfAbsent(loader, l -> AppApi.find(l, "", "the app's"));
    }
    last = new LoaderApi(loader, api);
    return api;
  }

  private Optional<AppApi> bootstrapApi() {
    Optional<AppApi> boot = bootstrap;
    if (boot == null) {
      boot = AppApi.find(null, OTEL_AGENT_PREFIX, "the OpenTelemetry Java agent's");
      bootstrap = boot;
    }
    return boot;
  }

  private record LoaderApi(ClassLoader loader, Optional<AppApi> api) {}
}
