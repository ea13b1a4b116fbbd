package io.tollgate.overrides;

import io.tollgate.config.ConfigException;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.Subject;
import java.util.Locale;
import java.util.Objects;

/**
 * What a live override applies to: a tenant, a provider's account, or one model on a provider.
 *
 * @param kind what it is
 * @param name the tenant's id as the operator typed it, or the provider's name
 * @param model the model, for {@link Kind#MODEL}; else empty
 */
public record OverrideTarget(Kind kind, String name, String model) {

  /** The scope a tenant's override is looked up by: its outbound subject's hash. */
  public static final String TENANT_SCOPE = "tenant";

  /** What an override applies to. */
  public enum Kind { TENANT, PROVIDER, MODEL, MODE }

  public OverrideTarget {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(model, "model");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a " + kind.name().toLowerCase(Locale.ROOT)
          + " override needs a name");
    }
    if ((kind == Kind.MODEL) == model.isBlank()) {
      throw new IllegalArgumentException(kind == Kind.MODEL
          ? "a model override needs the model's name" : "only a model override names a model");
    }
  }

  public static OverrideTarget tenant(String id) {
    return new OverrideTarget(Kind.TENANT, id, "");
  }

  /** The mode of every instance ({@code mode}, {@code canary-percent}). */
  public static OverrideTarget mode() {
    return new OverrideTarget(Kind.MODE, "mode", "");
  }

  public static OverrideTarget provider(String name) {
    return new OverrideTarget(Kind.PROVIDER, name, "");
  }

  public static OverrideTarget model(String provider, String model) {
    return new OverrideTarget(Kind.MODEL, provider, model.toLowerCase(Locale.ROOT));
  }

  /**
   * Where the override is kept in Redis: {@code tenant:} and the hash of the tenant's subject
   * (keyed by {@code tenants.hash-key}, so a raw id never becomes part of a Redis name),
   * {@code provider:} and its name, {@code model:} and provider/model.
   *
   * @throws ConfigException when the configuration has no such tenant section or provider
   */
  String field(TollgateConfig config) {
    return switch (kind) {
      case TENANT -> tenantField(tenants(config).subject(TENANT_SCOPE, name));
      case PROVIDER -> providerField(knownProvider(config));
      case MODEL -> modelField(knownProvider(config), model);
      case MODE -> MODE_FIELD;
    };
  }

  /** Where the mode set at runtime is kept. */
  static final String MODE_FIELD = "mode";
  /** What every tenant's field begins with. */
  static final String TENANT_PREFIX = "tenant:";

  /** The field of the tenant whose outbound subject ({@link #TENANT_SCOPE}) is {@code subject}. */
  static String tenantField(Subject subject) {
    return TENANT_PREFIX + subject.idHash();
  }

  static String providerField(String provider) {
    return "provider:" + provider;
  }

  /** The field of {@code model} (lower case) on {@code provider}. */
  static String modelField(String provider, String model) {
    return modelPrefix(provider) + model;
  }

  /** What the fields of every model on {@code provider} begin with. */
  static String modelPrefix(String provider) {
    return "model:" + provider + "/";
  }

  /** Where a configuration file would hold these limits: wrong keys are named under it. */
  String configPath() {
    return switch (kind) {
      case TENANT -> TollgateConfig.ROOT + ".tenants.overrides." + name;
      case PROVIDER -> TollgateConfig.ROOT + ".providers." + name + ".limits";
      case MODEL -> TollgateConfig.ROOT + ".providers." + name + ".models." + model;
      case MODE -> TollgateConfig.ROOT;
    };
  }

  /** How messages and the audit list name it: {@code tenant acme}, {@code model openai/gpt-4o}. */
  public String label() {
    return switch (kind) {
      case TENANT -> "tenant " + name;
      case PROVIDER -> "provider " + name;
      case MODEL -> "model " + name + "/" + model;
      case MODE -> "mode";
    };
  }

  private static TenantsConfig tenants(TollgateConfig config) {
    return config.tenants().orElseThrow(() -> new ConfigException(TollgateConfig.ROOT + ".tenants",
        "is not configured: a tenant's limits cannot be overridden"));
  }

  private String knownProvider(TollgateConfig config) {
    if (!config.providers().containsKey(name)) {
      throw new ConfigException(TollgateConfig.ROOT + ".providers." + name,
          "is not a configured provider; known: " + config.providers().keySet());
    }
    return name;
  }
}
