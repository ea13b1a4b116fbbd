package io.tollgate.config;

import io.tollgate.llm.Price;
import io.tollgate.llm.Prices;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything under {@code tollgate:}: the one configuration every front end (agent, servlet filter,
 * Spring Boot starter) runs from. Immutable, and valid once built: every key has been checked, and
 * every fallback names a configured provider.
 *
 * <p>Read one with {@link #load(String)} or a {@link TollgateConfigLoader}; build one in code with
 * {@link #builder()}.
 */
public final class TollgateConfig {

  /** The key everything sits under. */
  public static final String ROOT = "tollgate";

  public static final Mode DEFAULT_MODE = Mode.ENFORCE;
  public static final OnLimit DEFAULT_ON_LIMIT = OnLimit.REJECT;
  public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(2);
  public static final boolean DEFAULT_STRICT = false;

  /** An HTTP header name: RFC 9110's token characters. */

  private final Mode mode;
  private final int canaryPercent;
  private final OnLimit onLimit;
  private final Duration maxWait;
  private final boolean strict;
  private final RedisConfig redis;
  private final Map<String, ProviderConfig> providers;
  private final TenantsConfig tenants;
  private final BreakerConfig breaker;
  private final TokensConfig tokens;
  private final TelemetryConfig telemetry;
  private final StatusConfig status;
  /** Null when absent: no priority classes. */
  private final PriorityConfig priority;
  private final List<String> credentialHeaders;
  private final Map<String, Price> prices;

  private TollgateConfig(Builder builder) {
    this.mode = builder.mode;
    this.canaryPercent = Math.max(builder.canaryPercent, 0);
    this.onLimit = builder.onLimit;
    this.maxWait = builder.maxWait;
    this.strict = builder.strict;
    this.redis = builder.redis;
    this.providers = Collections.unmodifiableMap(new LinkedHashMap<>(builder.providers));
    this.tenants = builder.tenants;
    this.breaker = builder.breaker;
    this.tokens = builder.tokens;
    this.telemetry = builder.telemetry;
    this.status = builder.status;
    this.priority = builder.priority;
    this.credentialHeaders = List.copyOf(builder.credentialHeaders);
    this.prices = Collections.unmodifiableMap(new LinkedHashMap<>(builder.prices));
  }

  /**
   * Reads the configuration at {@code location} (a file path, or {@code classpath:name.yaml}),
   * with {@code ${NAME}} and {@code TOLLGATE_...} taken from the process environment.
   *
   * @throws ConfigException naming the key at fault
   */
  public static TollgateConfig load(String location) {
    return TollgateConfigLoader.create().load(location);
  }

  /** Every default, no provider: enforce in memory, touching no call until providers are added. */
  public static TollgateConfig ofDefaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@code mode}: {@code enforce}, {@code shadow} (decide and report, never block), {@code
   * advisory} (shadow, and inbound clients are told), {@code canary} (enforce for {@code
   * canary-percent} of the tenants) or {@code off}; default {@code enforce}.
   */
  public Mode mode() {
    return mode;
  }

  /** {@code canary-percent}: under {@code mode: canary}, the share of tenants enforced, 0 to 100. */
  public int canaryPercent() {
    return canaryPercent;
  }

  /** The mode and its canary share, as configured (a live override may replace them). */
  public ModeSetting modeSetting() {
    return new ModeSetting(mode, canaryPercent);
  }

  /**
   * {@code on-limit}: {@code reject} (a synthetic 429 at once) or {@code wait} (up to
   * {@link #maxWait()}, then reject); default {@code reject}.
   */
  public OnLimit onLimit() {
    return onLimit;
  }

  /** {@code max-wait}: the longest a call waits for room when {@code on-limit} is {@code wait}; default 2s. */
  public Duration maxWait() {
    return maxWait;
  }

  /**
   * {@code strict}: false (default) lets the agent disable Tollgate on a bad configuration and run
   * the app untouched; true aborts start-up instead.
   */
  public boolean strict() {
    return strict;
  }

  /** {@code redis}: the shared limiter; empty means an in-memory limiter, one per JVM. */
  public Optional<RedisConfig> redis() {
    return Optional.ofNullable(redis);
  }

  /** {@code providers}: name → provider, in the order written. Empty when none is configured. */
  public Map<String, ProviderConfig> providers() {
    return providers;
  }

  /** The provider called {@code name}, if configured. */
  public Optional<ProviderConfig> provider(String name) {
    return Optional.ofNullable(providers.get(name));
  }

  /** {@code tenants}: per-tenant limits; empty when calls are not charged to tenants. */
  public Optional<TenantsConfig> tenants() {
    return Optional.ofNullable(tenants);
  }

  /** {@code breaker}: the per-provider circuit breaker settings; defaults when not set. */
  public BreakerConfig breaker() {
    return breaker;
  }

  /** {@code tokens}: token estimation settings; defaults when not set. */
  public TokensConfig tokens() {
    return tokens;
  }

  /** {@code priority}: the priority classes and their shares of every limit; empty: none. */
  public Optional<PriorityConfig> priority() {
    return Optional.ofNullable(priority);
  }

  /** {@code status}: where the status page is served; nowhere by default. */
  public StatusConfig status() {
    return status;
  }

  /** {@code telemetry}: whether the agent exports spans and metrics itself; defaults when not set. */
  public TelemetryConfig telemetry() {
    return telemetry;
  }

  /**
   * {@code credential-headers}: more headers that hold secrets, lower case, in the order written;
   * empty by default. Such a header is never sent to another origin than the one the app's call
   * went to: not to a fallback, not across a redirect. Tollgate sends only known-safe headers there
   * anyway (see {@code io.tollgate.router.CrossOriginHeaders}); a header named here stays behind
   * even if that list names it.
   */
  public List<String> credentialHeaders() {
    return credentialHeaders;
  }

  /**
   * {@code prices}: model → USD per million tokens, replacing or adding to the bundled table
   * ({@link Prices#bundled()}) for pricing spend; empty when not set.
   */
  public Map<String, Price> prices() {
    return prices;
  }

  /** The bundled price table with {@link #prices()} over it. */
  public Prices priceTable() {
    return Prices.bundled().withOverrides(prices);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TollgateConfig other
        && mode == other.mode
        && canaryPercent == other.canaryPercent
        && onLimit == other.onLimit
        && maxWait.equals(other.maxWait)
        && strict == other.strict
        && Objects.equals(redis, other.redis)
        && providers.equals(other.providers)
        && Objects.equals(tenants, other.tenants)
        && breaker.equals(other.breaker)
        && tokens.equals(other.tokens)
        && telemetry.equals(other.telemetry)
        && status.equals(other.status)
        && Objects.equals(priority, other.priority)
        && credentialHeaders.equals(other.credentialHeaders)
        && prices.equals(other.prices);
  }

  @Override
  public int hashCode() {
    return Objects.hash(mode, onLimit, maxWait, strict, redis, providers, tenants, breaker, tokens,
        telemetry, status, credentialHeaders, prices);
  }

  /** Every setting, API keys and Redis passwords masked: safe to log at start-up. */
  @Override
  public String toString() {
    return ROOT + "{mode=" + modeSetting()
        + ", on-limit=" + Values.name(onLimit)
        + ", max-wait=" + Durations.format(maxWait)
        + ", strict=" + strict
        + (credentialHeaders.isEmpty() ? "" : ", credential-headers=" + credentialHeaders)
        + ", redis=" + (redis == null ? "in-memory" : redis)
        + ", providers=" + providers
        + (tenants == null ? "" : ", tenants=" + tenants)
        + ", breaker=" + breaker
        + ", tokens=" + tokens
        + (telemetry.equals(TelemetryConfig.ofDefaults()) ? "" : ", telemetry=" + telemetry)
        + (status.equals(StatusConfig.ofDefaults()) ? "" : ", status=" + status)
        + (prices.isEmpty() ? "" : ", prices=" + prices) + "}";
  }

  /**
   * Collects the configuration; setters reject a bad value at once, {@link #build()} checks what
   * spans providers. Its messages name full keys ({@code tollgate.max-wait}).
   */
  public static final class Builder {
    private Mode mode = DEFAULT_MODE;
    private int canaryPercent = -1;
    private OnLimit onLimit = DEFAULT_ON_LIMIT;
    private Duration maxWait = DEFAULT_MAX_WAIT;
    private boolean strict = DEFAULT_STRICT;
    private RedisConfig redis;
    private final Map<String, ProviderConfig> providers = new LinkedHashMap<>();
    private TenantsConfig tenants;
    private BreakerConfig breaker = BreakerConfig.ofDefaults();
    private TokensConfig tokens = TokensConfig.ofDefaults();
    private TelemetryConfig telemetry = TelemetryConfig.ofDefaults();
    private StatusConfig status = StatusConfig.ofDefaults();
    private PriorityConfig priority;
    private final List<String> credentialHeaders = new ArrayList<>();
    private final Map<String, Price> prices = new LinkedHashMap<>();

    private Builder() {}

    /** The price of {@code model} (any case), over the bundled table's. */
    public Builder price(String model, Price price) {
      if (model == null || model.isBlank()) {
        throw new ConfigException(ROOT + ".prices", "has an entry without a model name");
      }
      prices.put(model, Objects.requireNonNull(price, "price"));
      return this;
    }

    /** Under {@code mode: canary}, the share of tenants enforced, 0 to 100. */
    public Builder canaryPercent(int canaryPercent) {
      if (canaryPercent < 0 || canaryPercent > 100) {
        throw new ConfigException(ROOT + ".canary-percent", "must be between 0 and 100, was "
            + canaryPercent);
      }
      this.canaryPercent = canaryPercent;
      return this;
    }

    public Builder mode(Mode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    public Builder onLimit(OnLimit onLimit) {
      this.onLimit = Objects.requireNonNull(onLimit, "onLimit");
      return this;
    }

    /** May be zero (a waiting limit then rejects at once), not negative. */
    public Builder maxWait(Duration maxWait) {
      if (maxWait.isNegative()) {
        throw new ConfigException(ROOT + ".max-wait", "must be >= 0, was " + Durations.format(maxWait));
      }
      this.maxWait = maxWait;
      return this;
    }

    public Builder strict(boolean strict) {
      this.strict = strict;
      return this;
    }

    /** The shared limiter; null for in-memory. */
    public Builder redis(RedisConfig redis) {
      this.redis = redis;
      return this;
    }

    /** Adds a provider; its name must be new. */
    public Builder provider(ProviderConfig provider) {
      if (providers.putIfAbsent(provider.name(), provider) != null) {
        throw new ConfigException(ROOT + ".providers." + provider.name(), "is configured twice");
      }
      return this;
    }

    /** Per-tenant limits; null for none. */
    public Builder tenants(TenantsConfig tenants) {
      this.tenants = tenants;
      return this;
    }

    public Builder breaker(BreakerConfig breaker) {
      this.breaker = Objects.requireNonNull(breaker, "breaker");
      return this;
    }

    public Builder tokens(TokensConfig tokens) {
      this.tokens = Objects.requireNonNull(tokens, "tokens");
      return this;
    }

    public Builder priority(PriorityConfig priority) {
      this.priority = Objects.requireNonNull(priority, "priority");
      return this;
    }

    public Builder status(StatusConfig status) {
      this.status = Objects.requireNonNull(status, "status");
      return this;
    }

    public Builder telemetry(TelemetryConfig telemetry) {
      this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
      return this;
    }

    /**
     * More headers that hold secrets (header names, any case; kept lower case), replacing any
     * given before.
     */
    public Builder credentialHeaders(List<String> credentialHeaders) {
      List<String> names = new ArrayList<>(credentialHeaders.size());
      for (int i = 0; i < credentialHeaders.size(); i++) {
        String name = credentialHeaders.get(i);
        if (name == null || !Values.HEADER_NAME.matcher(name).matches()) {
          throw new ConfigException(ROOT + ".credential-headers[" + i + "]",
              "must be a header name (letters, digits and !#$%&'*+-.^_`|~), was " + ConfigException.shown(name));
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (!names.contains(lower)) {
          names.add(lower);
        }
      }
      this.credentialHeaders.clear();
      this.credentialHeaders.addAll(names);
      return this;
    }

    /**
     * Checks that every fallback names a configured provider of the same API family, that no
     * fallback chain loops back, and that no two providers share a base URL.
     */
    public TollgateConfig build() {
      if (mode == Mode.CANARY && canaryPercent < 0) {
        throw new ConfigException(ROOT + ".canary-percent", "is required with mode: canary: the"
            + " share of tenants enforced, 0 to 100");
      }
      if (mode != Mode.CANARY && canaryPercent >= 0) {
        throw new ConfigException(ROOT + ".canary-percent", "is read only with mode: canary, and"
            + " the mode is " + Values.name(mode));
      }
      Map<URI, String> byBaseUrl = new HashMap<>();
      for (ProviderConfig provider : providers.values()) {
        String key = ROOT + ".providers." + provider.name();
        List<String> fallbacks = provider.fallbacks();
        for (int i = 0; i < fallbacks.size(); i++) {
          String fallback = fallbacks.get(i);
          if (!providers.containsKey(fallback)) {
            List<String> others = new ArrayList<>(providers.keySet());
            others.remove(provider.name());
            throw new ConfigException(key + ".fallbacks[" + i + "]", "must name a configured provider, was "
                + fallback + Suggestions.closest(fallback, others).map(s -> "; did you mean " + s + "?")
                    .orElse(others.isEmpty() ? "; no other provider is configured" : "; known: " + others));
          }
          ProviderConfig target = providers.get(fallback);
          if (!provider.api().sameFamily(target.api())) {
            throw new ConfigException(key + ".fallbacks[" + i + "]", "must speak the same API family as "
                + provider.name() + " (" + provider.api().configName() + "), was " + fallback + " ("
                + target.api().configName() + ")");
          }
        }
        // Calls are matched to providers by base URL: two with the same one cannot be told apart.
        String earlier = byBaseUrl.putIfAbsent(provider.baseUrl(), provider.name());
        if (earlier != null) {
          throw new ConfigException(key + ".base-url", "is the same as " + ROOT + ".providers." + earlier
              + ".base-url, was " + Urls.redacted(provider.baseUrl()));
        }
      }
      for (String name : providers.keySet()) {
        checkNoCycle(name, name, new ArrayList<>(List.of(name)));
      }
      return new TollgateConfig(this);
    }

    /** Fallbacks are followed from fallback to fallback: a chain that returns to its start never ends. */
    private void checkNoCycle(String start, String at, List<String> path) {
      for (String next : providers.get(at).fallbacks()) {
        if (next.equals(start)) {
          path.add(next);
          throw new ConfigException(ROOT + ".providers." + start + ".fallbacks",
              "must not lead back to " + start + ", was the cycle " + String.join(" -> ", path));
        }
        if (!path.contains(next)) {
          path.add(next);
          checkNoCycle(start, next, path);
          path.remove(path.size() - 1);
        }
      }
    }
  }
}
