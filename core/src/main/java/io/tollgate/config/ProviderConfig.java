package io.tollgate.config;

import io.tollgate.llm.ProviderApi;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One LLM provider ({@code tollgate.providers.<name>}): where it is, how it speaks, its account
 * limits, and where its calls go when it cannot take them. Calls to hosts that match no provider's
 * {@link #baseUrl()} are not touched.
 */
public final class ProviderConfig {

  public static final ProviderApi DEFAULT_API = ProviderApi.OPENAI;

  /** Names go into metrics, spans, property keys and environment variable names: keep them plain. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");
  private static final Set<String> SCHEMES = Set.of("http", "https");

  private final String name;
  private final URI baseUrl;
  private final ProviderApi api;
  private final Secret apiKey;
  private final boolean allowInsecure;
  private final LimitsConfig limits;
  private final List<String> fallbacks;
  private final Map<String, String> modelMap;
  /** By model name in lower case; {@link #ANY_MODEL} for every other model. */
  private final Map<String, LimitsConfig> models;
  private final boolean learnLimits;

  /** The {@code models} key whose limits every model not named there gets, each on its own. */
  public static final String ANY_MODEL = "*";

  private ProviderConfig(Builder builder) {
    this.name = builder.name;
    this.baseUrl = builder.baseUrl;
    this.api = builder.api;
    this.apiKey = builder.apiKey;
    this.allowInsecure = builder.allowInsecure;
    this.limits = builder.limits;
    this.fallbacks = List.copyOf(builder.fallbacks);
    this.modelMap = Collections.unmodifiableMap(new LinkedHashMap<>(builder.modelMap));
    this.models = Collections.unmodifiableMap(new LinkedHashMap<>(builder.models));
    this.learnLimits = builder.learnLimits;
  }

  /**
   * A builder for the provider called {@code name}: letters, digits, {@code -} and {@code _}.
   *
   * @throws ConfigException naming {@code name} when it has other characters
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** The provider's name, its key under {@code tollgate.providers}; used in metrics, spans and fallbacks. */
  public String name() {
    return name;
  }

  /**
   * {@code base-url}: the provider's absolute http or https URL; calls to it are this provider's,
   * and no two providers share one. Required.
   */
  public URI baseUrl() {
    return baseUrl;
  }

  /** {@code api}: {@code openai}, {@code azure-openai} or {@code anthropic}; default {@code openai}. */
  public ProviderApi api() {
    return api;
  }

  /**
   * {@code api-key}: sent only when Tollgate itself routes a call to this provider (a fallback);
   * empty when not set or set to an empty value. Never printed.
   */
  public Optional<Secret> apiKey() {
    return Optional.ofNullable(apiKey);
  }

  /**
   * {@code allow-insecure}: whether a plain {@code http://} {@code base-url} to a host other than
   * loopback may carry the {@link #apiKey()}; default false, so that the provider's own credential
   * does not cross the network in clear text by accident.
   */
  public boolean allowInsecure() {
    return allowInsecure;
  }

  /** {@code limits}: the provider account's limits; {@link LimitsConfig#none()} when not set. */
  public LimitsConfig limits() {
    return limits;
  }

  /**
   * {@code fallbacks}: names of other providers that take a call this one cannot, tried in order of
   * health; each is a configured provider other than this one. Empty when not set.
   */
  public List<String> fallbacks() {
    return fallbacks;
  }

  /**
   * {@code model-map}: when this provider takes another's call as a fallback, the model asked of the
   * primary → the model to ask here. A model not in the map is asked as it is. Empty when not set.
   */
  public Map<String, String> modelMap() {
    return modelMap;
  }

  /**
   * {@code models}: limits per model (for {@code api: azure-openai}, per deployment), each checked
   * together with {@link #limits()}; the key {@code "*"} gives every model not named its own limits
   * of that size. Keys in lower case; empty when not set.
   */
  public Map<String, LimitsConfig> models() {
    return models;
  }

  /**
   * The limits of {@code model} (a name in any case, or empty when the request names none): its
   * own entry under {@code models}, else the {@code "*"} entry, else {@link LimitsConfig#none()}.
   */
  public LimitsConfig modelLimits(String model) {
    LimitsConfig own = models.get(model.toLowerCase(Locale.ROOT));
    return own != null ? own : models.getOrDefault(ANY_MODEL, LimitsConfig.none());
  }

  /**
   * {@code learn-limits}: whether the provider's own rate-limit headers lower the room Tollgate
   * holds for its limits when they report less; default true.
   */
  public boolean learnLimits() {
    return learnLimits;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ProviderConfig other
        && name.equals(other.name)
        && baseUrl.equals(other.baseUrl)
        && api == other.api
        && Objects.equals(apiKey, other.apiKey)
        && allowInsecure == other.allowInsecure
        && limits.equals(other.limits)
        && fallbacks.equals(other.fallbacks)
        && modelMap.equals(other.modelMap)
        && models.equals(other.models)
        && learnLimits == other.learnLimits;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, baseUrl, api, apiKey, allowInsecure, limits, fallbacks, modelMap,
        models, learnLimits);
  }

  @Override
  public String toString() {
    return "{base-url=" + Urls.redacted(baseUrl)
        + ", api=" + Values.name(api)
        + (apiKey != null ? ", api-key=" + Secret.MASK : "")
        + (allowInsecure ? ", allow-insecure=true" : "")
        + (limits.isEmpty() ? "" : ", limits=" + limits)
        + (fallbacks.isEmpty() ? "" : ", fallbacks=" + fallbacks)
        + (modelMap.isEmpty() ? "" : ", model-map=" + modelMap)
        + (models.isEmpty() ? "" : ", models=" + models)
        + (learnLimits ? "" : ", learn-limits=false") + "}";
  }

  /** Collects one provider; each setter rejects a bad value at once, {@link #build()} requires {@code base-url}. */
  public static final class Builder {
    private final String name;
    private URI baseUrl;
    private ProviderApi api = DEFAULT_API;
    private Secret apiKey;
    private boolean allowInsecure;
    private LimitsConfig limits = LimitsConfig.none();
    private final List<String> fallbacks = new ArrayList<>();
    private final Map<String, String> modelMap = new LinkedHashMap<>();
    private final Map<String, LimitsConfig> models = new LinkedHashMap<>();
    private boolean learnLimits = true;

    private Builder(String name) {
      if (name == null || !NAME.matcher(name).matches()) {
        throw new ConfigException(ConfigException.shown(name),
            "is not a usable provider name: use letters, digits, '-' and '_'");
      }
      this.name = name;
    }

    public Builder baseUrl(String baseUrl) {
      this.baseUrl = Urls.parse("base-url", baseUrl, SCHEMES, "an absolute http or https URL");
      return this;
    }

    public Builder baseUrl(URI baseUrl) {
      return baseUrl(baseUrl.toString());
    }

    public Builder api(ProviderApi api) {
      this.api = Objects.requireNonNull(api, "api");
      return this;
    }

    /** The key as text; an empty one means none, so that {@code ${KEY:}} makes the key optional. */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey == null || apiKey.isEmpty() ? null : Secret.of(apiKey);
      return this;
    }

    /** True lets an {@code http://} {@code base-url} beyond loopback carry the {@code api-key}. */
    public Builder allowInsecure(boolean allowInsecure) {
      this.allowInsecure = allowInsecure;
      return this;
    }

    public Builder limits(LimitsConfig limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Other providers' names, in order; each at most once and none this provider's own. */
    public Builder fallbacks(List<String> fallbacks) {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < fallbacks.size(); i++) {
        String fallback = fallbacks.get(i);
        String key = "fallbacks[" + i + "]";
        if (fallback == null || fallback.isBlank()) {
          throw new ConfigException(key, "must name a provider, was " + ConfigException.shown(fallback));
        }
        if (fallback.equals(name)) {
          throw new ConfigException(key, "must not be the provider itself, was " + fallback);
        }
        if (!seen.add(fallback)) {
          throw new ConfigException(key, "repeats an earlier fallback, was " + fallback);
        }
      }
      this.fallbacks.clear();
      this.fallbacks.addAll(fallbacks);
      return this;
    }

    /** Primary's model → this provider's model; neither may be empty. */
    public Builder modelMap(Map<String, String> modelMap) {
      modelMap.forEach((from, to) -> {
        if (from == null || from.isBlank()) {
          throw new ConfigException("model-map", "has an entry without a model name");
        }
        if (to == null || to.isBlank()) {
          throw new ConfigException("model-map." + from, "must name a model, was " + ConfigException.shown(to));
        }
      });
      this.modelMap.clear();
      this.modelMap.putAll(modelMap);
      return this;
    }

    /** The limits of one model (any case; {@code "*"} for every model not named). */
    public Builder model(String model, LimitsConfig limits) {
      if (model == null || model.isBlank()) {
        throw new ConfigException("models", "has an entry without a model name");
      }
      Objects.requireNonNull(limits, "limits");
      if (models.putIfAbsent(model.toLowerCase(Locale.ROOT), limits) != null) {
        throw new ConfigException("models." + model, "repeats a model in another case");
      }
      return this;
    }

    public Builder learnLimits(boolean learnLimits) {
      this.learnLimits = learnLimits;
      return this;
    }

    public ProviderConfig build() {
      if (baseUrl == null) {
        throw new ConfigException("base-url", "is required");
      }
      // Only the provider's own key is at stake: the app's credential goes wherever the app sends it.
      boolean clearText = "http".equalsIgnoreCase(baseUrl.getScheme()) && !Urls.isLoopback(baseUrl);
      if (apiKey != null && clearText && !allowInsecure) {
        throw new ConfigException("base-url", "must be https:// when the provider has an api-key (or set "
            + TollgateConfig.ROOT + ".providers." + name + ".allow-insecure: true), was " + Urls.redacted(baseUrl));
      }
      return new ProviderConfig(this);
    }
  }
}
