package io.tollgate.overrides;

import io.tollgate.config.ConfigException;
import io.tollgate.config.LimitsConfig;
import io.tollgate.config.ModeSetting;
import io.tollgate.config.TenantIdRule;
import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.Subject;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Limits changed at runtime, over the configuration's: a tenant's, a provider account's or a
 * model's limit keys, set and removed by an operator (the admin command, the actuator, the status
 * page's API) and in force on every instance sharing the Redis within {@link #POLL} or so. Each
 * instance polls the overrides' version, one small script run per {@link #POLL}, and reads them
 * all again only when it changed; while Redis cannot answer it keeps what it last read (the
 * configuration's limits until it has read any). An override replaces the keys it names and keeps
 * the configuration's others, as an {@code overrides:} entry of the file does; removing it brings
 * the configuration's back.
 */
public final class Overrides implements AutoCloseable {

  /** How often an instance asks whether the overrides changed. */
  public static final Duration POLL = Duration.ofSeconds(1);
  /** The longest author name kept. */
  static final int MAX_AUTHOR = 64;

  private static final System.Logger LOG = System.getLogger(Overrides.class.getName());

  private final OverrideStore store;
  private final TollgateConfig config;
  private final boolean shared;
  private final List<Consumer<LiveOverrides>> listeners = new CopyOnWriteArrayList<>();
  private volatile Snapshot current = new Snapshot(LiveOverrides.NONE, Map.of(), null);
  private ScheduledExecutorService polls;

  /**
   * @param shared whether {@code store} is shared with other instances (Redis): then it is polled
   */
  public Overrides(OverrideStore store, TollgateConfig config, boolean shared) {
    this.store = Objects.requireNonNull(store, "store");
    this.config = Objects.requireNonNull(config, "config");
    this.shared = shared;
  }

  /** Polls a shared store every {@link #POLL}, the first time at once, on a daemon thread. */
  public synchronized Overrides start() {
    if (shared && polls == null) {
      polls = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "tollgate-overrides");
        thread.setDaemon(true);
        return thread;
      });
      polls.scheduleWithFixedDelay(this::pollQuietly, 0, POLL.toMillis(), TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /** Called with the new overrides whenever the version in force changes. */
  public void onChange(Consumer<LiveOverrides> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** The overrides in force on this instance. */
  public LiveOverrides current() {
    return current.live;
  }

  /** The mode set at runtime, when one is in force: it replaces the configuration's. */
  public Optional<ModeSetting> mode() {
    return Optional.ofNullable(current.mode);
  }

  /** The limits the override at {@code field} sets, when there is one in force. */
  public Optional<LimitsConfig> limits(String field) {
    return Optional.ofNullable(current.parsed.get(field));
  }

  /**
   * The override in force of the tenant whose outbound subject ({@link OverrideTarget#TENANT_SCOPE},
   * as {@code tenants.subject} makes it) is {@code subject}, when any: its limit keys over the
   * configuration's.
   */
  public Optional<LimitsConfig> tenantLimits(Subject subject) {
    Snapshot now = current;
    if (!now.live.namesTenants()) {
      return Optional.empty();
    }
    return Optional.ofNullable(now.parsed.get(OverrideTarget.tenantField(subject)));
  }

  /** A provider account's override in force, when any. */
  public Optional<LimitsConfig> providerLimits(String provider) {
    return limits(OverrideTarget.providerField(provider));
  }

  /** A model's override on {@code provider}, when any (the model in lower case). */
  public Optional<LimitsConfig> modelLimits(String provider, String model) {
    return limits(OverrideTarget.modelField(provider, model));
  }

  /** Whether an override in force names a model on {@code provider}. */
  public boolean namesModelsOf(String provider) {
    String prefix = OverrideTarget.modelPrefix(provider);
    return current.live.entries().keySet().stream().anyMatch(field -> field.startsWith(prefix));
  }

  /**
   * Sets {@code target}'s limit keys (replacing its override, if any), checked as the
   * configuration's are; in force here at once, on the rest of the fleet within {@link #POLL}.
   *
   * @param limits limit key → value as a {@code limits:} section writes it
   * @param by who sets it (kept in the audit list)
   * @throws ConfigException naming the key at fault: an unknown key, a bad value, no limit at
   *     all, an unknown provider, no {@code tenants} section, an id the tenant rule refuses
   */
  public OverrideChange set(OverrideTarget target, Map<String, String> limits, String by) {
    String field = field(target);
    Map<String, String> checked;
    if (target.kind() == OverrideTarget.Kind.MODE) {
      checked = ModeSetting.parse(limits).texts();
    } else {
      LimitsConfig parsed = LimitsConfig.parse(target.configPath(), limits);
      if (parsed.isEmpty()) {
        throw new ConfigException(target.configPath(), "sets no limit: give at least one key such"
            + " as requests-per-minute; to drop the override, remove it");
      }
      checked = parsed.texts();
    }
    OverrideChange change = store.set(field, target.label(), checked, author(by));
    refresh();
    return change;
  }

  /** Removes {@code target}'s override; empty when it had none. */
  public Optional<OverrideChange> remove(OverrideTarget target, String by) {
    Optional<OverrideChange> change = store.remove(field(target), target.label(), author(by));
    refresh();
    return change;
  }

  /** The overrides as the store holds them now (not only as this instance last read them). */
  public List<OverrideEntry> list() {
    refresh();
    return new ArrayList<>(current.live.entries().values());
  }

  /** The latest {@code max} changes, newest first. */
  public List<OverrideChange> audit(int max) {
    return store.audit(max);
  }

  /** Reads the store now when its version moved. */
  public void refresh() {
    if (!current.live.stamp().equals(store.stamp())) {
      apply(store.read());
    }
  }

  @Override
  public synchronized void close() {
    if (polls != null) {
      polls.shutdownNow();
      polls = null;
    }
  }

  private String field(OverrideTarget target) {
    if (target.kind() == OverrideTarget.Kind.TENANT && !TenantIdRule.isValid(target.name())) {
      // not named in the message: it may be a forged log line or 10 KB
      throw new ConfigException(TollgateConfig.ROOT + ".tenants.overrides",
          "takes tenant ids of " + TenantIdRule.DESCRIPTION);
    }
    return target.field(config);
  }

  private static String author(String by) {
    String cleaned = by == null ? "" : by.replaceAll("[^\\p{Alnum}@._:/ -]", "_").strip();
    if (cleaned.isEmpty()) {
      return "unknown";
    }
    return cleaned.length() > MAX_AUTHOR ? cleaned.substring(0, MAX_AUTHOR) : cleaned;
  }

  private void pollQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      // the limiter reports Redis's state; until it answers, what was read last stays in force
      LOG.log(Level.DEBUG, "reading the live overrides failed", e);
    }
  }

  private synchronized void apply(LiveOverrides live) {
    if (live.stamp().equals(current.live.stamp())) {
      return;
    }
    Map<String, LimitsConfig> parsed = new HashMap<>();
    ModeSetting mode = null;
    for (OverrideEntry entry : live.entries().values()) {
      try {
        if (entry.field().equals(OverrideTarget.MODE_FIELD)) {
          mode = ModeSetting.parse(entry.limits());
          continue;
        }
        parsed.put(entry.field(), LimitsConfig.parse(TollgateConfig.ROOT + ".overrides ("
            + entry.label() + ")", entry.limits()));
      } catch (ConfigException e) {
        // another version of Tollgate may know keys this one does not: the others still apply
        LOG.log(Level.WARNING, "ignoring the live override of " + entry.label() + ": "
            + e.getMessage());
      }
    }
    current = new Snapshot(live, parsed, mode);
    LOG.log(Level.INFO, "live overrides at version " + live.version() + ": "
        + live.entries().size() + " in force");
    listeners.forEach(listener -> listener.accept(live));
  }

  private record Snapshot(LiveOverrides live, Map<String, LimitsConfig> parsed, ModeSetting mode) {}
}
