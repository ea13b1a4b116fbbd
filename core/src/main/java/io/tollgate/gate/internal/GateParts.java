package io.tollgate.gate.internal;

import io.tollgate.config.LimitsConfig;
import io.tollgate.config.Mode;
import io.tollgate.config.ModeSetting;
import io.tollgate.config.OnLimit;
import io.tollgate.config.PriorityConfig;
import io.tollgate.config.ProviderConfig;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Activity;
import io.tollgate.limiter.BoundedSubjects;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.ProviderApi;
import io.tollgate.overrides.OverrideTarget;
import io.tollgate.overrides.Overrides;
import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.router.HealthBoard;
import io.tollgate.router.ProviderBreakers;
import io.tollgate.router.RequestRewriter;
import io.tollgate.telemetry.Telemetry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Everything a call consults, built once per gate: the configuration, the limiter, breakers,
 * health, protocols and each provider's limits.
 */
public final class GateParts {

  /** The scope of the tenants' outbound charges: the one live overrides look tenants up by. */
  public static final String TENANT_SCOPE = OverrideTarget.TENANT_SCOPE;
  /** The scope of the outbound charges of users inside tenants ({@code tenants.user-limits}). */
  public static final String USER_SCOPE = "user";

  final TollgateConfig config;
  /** What calls are charged on: the limiter given, its tenants bounded ({@code tenants.max-tracked}). */
  final RateLimiter limiter;
  private final RateLimiter given;
  /** Null when calls are not charged to tenants. */
  private final TenantsConfig tenants;
  /** Null when users are not limited. */
  private final Limits userLimits;
  final ProviderBreakers breakers;
  final HealthBoard health;
  final CrossOriginHeaders crossOrigin;
  final RequestRewriter rewriter;
  final Cooldowns cooldowns;
  final Clock clock;
  final Telemetry telemetry;
  final Pricing pricing;
  /** What the status page shows of this gate's calls and requests. */
  final Activity activity;
  /** The calls waiting for room under {@code on-limit: wait}, first come, first served. */
  final WaitLines waitLines = new WaitLines();
  private final Map<ProviderApi, LlmProtocol> protocols = new EnumMap<>(ProviderApi.class);
  /**
   * Each provider's account, its limits and its models': its subject hashed once, not on every
   * call; made again when the live overrides change.
   */
  private volatile Map<String, ProviderCharges> providerCharges;
  /** Limits set at runtime, over the configuration's. */
  final Overrides overrides;
  /** Null without {@code priority}: every call may use every limit whole. */
  private final PriorityConfig priority;
  /** The sets of limits as each class sees them: at most as many as there are sets and classes. */
  private final Map<SharedLimits, Limits> sharedLimits = new ConcurrentHashMap<>();
  private static final int MAX_SHARED_LIMITS = 4096;
  /** The limits of the tenants a live override names, merged: emptied when the overrides change. */
  private final Map<String, Merged> liveTenantLimits = new ConcurrentHashMap<>();

  public GateParts(TollgateConfig config, RateLimiter limiter, ProviderBreakers breakers,
      HealthBoard health, Clock clock, Telemetry telemetry, Overrides overrides) {
    this.config = config;
    this.telemetry = telemetry;
    this.pricing = new Pricing(config);
    this.given = limiter;
    this.tenants = config.tenants().orElse(null);
    this.limiter = tenants == null ? limiter : bounded(limiter, tenants);
    this.userLimits = tenants == null || tenants.userLimits().isEmpty() ? null
        : tenants.userLimits().toLimits();
    this.breakers = breakers;
    this.activity = new Activity(config.providers().keySet(), clock);
    breakers.onStateTransition(activity::transition);
    this.health = health;
    this.clock = clock;
    this.cooldowns = new Cooldowns(clock);
    this.crossOrigin = CrossOriginHeaders.of(config.credentialHeaders());
    this.rewriter = RequestRewriter.of(crossOrigin);
    for (ProviderApi api : ProviderApi.values()) {
      protocols.put(api, LlmProtocol.of(api, clock));
    }
    this.overrides = overrides;
    this.priority = config.priority().orElse(null);
    this.providerCharges = providerCharges();
    overrides.onChange(live -> {
      liveTenantLimits.clear();
      providerCharges = providerCharges();
    });
  }

  private Map<String, ProviderCharges> providerCharges() {
    Map<String, ProviderCharges> charges = new HashMap<>();
    for (ProviderConfig provider : config.providers().values()) {
      charges.put(provider.name(), new ProviderCharges(provider, overrides));
    }
    return Map.copyOf(charges);
  }

  /** Limits set at runtime, over the configuration's. */
  public Overrides overrides() {
    return overrides;
  }

  /**
   * The limits of {@code tenant} now: the configuration's ({@code tenants.limits}, its {@code
   * overrides} entry) with a live override's keys over them.
   */
  LimitsConfig tenantLimits(String tenant) {
    return tenantLimits(tenant, tenants.subject(TENANT_SCOPE, tenant));
  }

  /** As {@link #tenantLimits(String)}, given the tenant's outbound subject already hashed. */
  private LimitsConfig tenantLimits(String tenant, Subject subject) {
    Optional<LimitsConfig> live = overrides.tenantLimits(subject);
    if (live.isEmpty()) {
      return tenants.limitsFor(tenant);
    }
    // merged once per override in force, not on every call (the map holds overridden tenants only)
    Merged merged = liveTenantLimits.get(tenant);
    if (merged == null || merged.live != live.get()) {
      merged = new Merged(live.get(), tenants.limitsFor(tenant).mergedWith(live.get()));
      liveTenantLimits.put(tenant, merged);
    }
    return merged.limits;
  }

  /** A tenant's live override and the limits it makes with the configuration's. */
  private record Merged(LimitsConfig live, LimitsConfig limits) {}

  /** Whether {@code tenant} has limits of its own: in the configuration, or set live. */
  boolean isKnownTenant(String tenant) {
    return tenants.isKnown(tenant)
        || overrides.tenantLimits(tenants.subject(TENANT_SCOPE, tenant)).isPresent();
  }

  /** {@code limiter} charging at most {@code tenants.max-tracked} tenants, and users, on their own. */
  private static RateLimiter bounded(RateLimiter limiter, TenantsConfig tenants) {
    RateLimiter bounded = BoundedSubjects.builder(limiter, TENANT_SCOPE)
        .maxTracked(tenants.maxTracked())
        .pinned(tenants.knownTenants().stream()
            .map(id -> tenants.subject(TENANT_SCOPE, id)).collect(Collectors.toSet()))
        .build();
    // user ids come from clients as tenant ids do: a flood of them is bounded alike
    return tenants.userHeader().isEmpty() ? bounded
        : BoundedSubjects.builder(bounded, USER_SCOPE).maxTracked(tenants.maxTracked()).build();
  }

  public TollgateConfig config() {
    return config;
  }

  /** The limiter as given (the tenants' bound is the gate's own). */
  public RateLimiter limiter() {
    return given;
  }

  public ProviderBreakers breakers() {
    return breakers;
  }

  public HealthBoard health() {
    return health;
  }

  public Telemetry telemetry() {
    return telemetry;
  }

  /** What may go to another origin than a call's: for a rewrite, and for a redirect. */
  public CrossOriginHeaders crossOrigin() {
    return crossOrigin;
  }

  LlmProtocol protocol(ProviderConfig provider) {
    return protocols.get(provider.api());
  }

  LlmProtocol protocol(ProviderApi api) {
    return protocols.get(api);
  }

  ProviderConfig provider(String name) {
    return config.providers().get(name);
  }

  /** The mode as set: the configuration's, or the one a live override set. */
  public Mode mode() {
    return modeSetting().mode();
  }

  /** The mode and its canary share in force: a live override's, else the configuration's. */
  public ModeSetting modeSetting() {
    return overrides.mode().orElseGet(config::modeSetting);
  }

  /** The mode of a call charged to {@code tenant}: under canary, enforce or shadow by tenant. */
  Mode modeFor(Optional<String> tenant) {
    return modeSetting().forTenant(tenant);
  }

  boolean waitsWhenLimited() {
    return config.onLimit() == OnLimit.WAIT;
  }

  Duration maxWait() {
    return config.maxWait();
  }

  long defaultMaxOutput() {
    return config.tokens().defaultMaxOutput();
  }

  /**
   * What a call to {@code provider} sending {@code model} is charged on its account; empty when
   * nothing: for the status page.
   */
  public Optional<Charge> accountCharge(String provider, Optional<String> model) {
    ProviderCharges charges = providerCharges.get(provider);
    return charges == null ? Optional.empty() : charges.charge(model);
  }

  /** Whether a call to {@code provider} is charged to its account: then the first of its charges. */
  boolean chargesAccount(String provider) {
    return providerCharges.get(provider).chargesAccount();
  }

  /**
   * Who pays for a call to {@code provider} that sends {@code model}, as a priority class allowed
   * {@code share} of every limit: its account (with the model's limits) first, then the user
   * inside the tenant when one is bound and users are limited, then the tenant when one is bound,
   * all reserved as one decision. The user goes before its tenant: where subjects are reserved in
   * turn (in memory, a Redis Cluster), a call its user refuses then never holds the tenant's room
   * for a moment, so it cannot crowd out another user's call.
   */
  List<Charge> charges(String provider, Optional<String> model, Optional<String> tenant,
      Optional<String> user, double share) {
    List<Charge> charges = new ArrayList<>(3);
    providerCharges.get(provider).charge(model).ifPresent(charge -> charges.add(shared(charge, share)));
    if (tenant.isEmpty() || tenants == null) {
      return charges;
    }
    if (userLimits != null && user.isPresent()) {
      charges.add(new Charge(tenants.userSubject(USER_SCOPE, tenant.get(), user.get()),
          sharing(userLimits, share)));
    }
    Subject subject = tenants.subject(TENANT_SCOPE, tenant.get());
    LimitsConfig limits = tenantLimits(tenant.get(), subject);
    if (!limits.isEmpty()) {
      charges.add(new Charge(subject, sharing(limits.toLimits(), share)));
    }
    return charges;
  }

  private Charge shared(Charge charge, double share) {
    return share == 1 ? charge : new Charge(charge.subject(), sharing(charge.limits(), share));
  }

  /** {@code limits} as a class allowed {@code share} of them sees them, made once per set and share. */
  Limits sharing(Limits limits, double share) {
    if (share == 1) {
      return limits;
    }
    SharedLimits key = new SharedLimits(limits, share);
    Limits shared = sharedLimits.get(key);
    if (shared == null) {
      shared = limits.sharing(share);
      if (sharedLimits.size() < MAX_SHARED_LIMITS) {
        sharedLimits.put(key, shared);
      }
    }
    return shared;
  }

  /**
   * The priority class of a call: the one its {@code priority.header} names, else its tenant's,
   * else the default; empty without {@code priority}.
   */
  Optional<String> priorityClass(Optional<String> named, Optional<String> tenant) {
    return priority == null ? Optional.empty() : Optional.of(priority.classOf(named, tenant));
  }

  /** The share of every limit {@code priorityClass} may use: all of it without classes. */
  double share(Optional<String> priorityClass) {
    return priorityClass.isEmpty() || priority == null ? 1 : priority.share(priorityClass.get());
  }

  /** The header that names a call's class, when {@code priority.header} is set. */
  Optional<String> priorityHeader() {
    return priority == null ? Optional.empty() : priority.header();
  }

  private record SharedLimits(Limits limits, double share) {}

  public Activity activity() {
    return activity;
  }

  /**
   * What the status page shows of {@code tenant}: the name the operator gave it under {@code
   * overrides}, else its hash.
   */
  String tenantName(String tenant) {
    if (tenants != null) {
      String normalized = tenants.normalize(tenant);
      if (isKnownTenant(normalized)) {
        return normalized;
      }
    }
    return tenantHash(tenant);
  }

  /** What spans show of {@code tenant}: the hash of its subject, keyed by {@code tenants.hash-key} when set. */
  String tenantHash(String tenant) {
    return (tenants != null ? tenants.subject(TENANT_SCOPE, tenant) : Subject.of(TENANT_SCOPE, tenant)).idHash();
  }
}
