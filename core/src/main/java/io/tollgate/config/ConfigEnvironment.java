package io.tollgate.config;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The environment one load reads: variables for {@code ${NAME}}, and {@code TOLLGATE_...} variables
 * that override keys.
 *
 * <p>An override is looked up by the key it would replace ({@code tollgate.redis.url} →
 * {@code TOLLGATE_REDIS_URL}, or Spring's spelling {@code TOLLGATE_ONLIMIT} for
 * {@code tollgate.on-limit}) rather than parsed from the variable's name, because provider names and
 * tenant ids may contain {@code _} and {@code -}: the binder asks for every key it knows, and a
 * {@code TOLLGATE_} variable nobody asked for is then a typo, reported like an unknown key.
 */
final class ConfigEnvironment {

  private final Map<String, String> variables;
  private final boolean overrides;
  /** Every variable name looked up, in both spellings. */
  private final Set<String> consulted = new HashSet<>();
  /** The preferred spelling of each, for "did you mean". */
  private final Set<String> suggestable = new LinkedHashSet<>();

  ConfigEnvironment(Map<String, String> variables, boolean overrides) {
    this.variables = variables;
    this.overrides = overrides;
  }

  /**
   * The variable {@code name}, for {@code ${name}}; null when not set. A {@code TOLLGATE_} variable
   * read this way ({@code hash-key: ${TOLLGATE_TENANT_HASH_KEY}}) is in use, not a mistyped override.
   */
  String variable(String name) {
    consulted.add(name);
    return variables.get(name);
  }

  /** The override of {@code key}, if its variable is set (and overrides are on). */
  Optional<String> override(String key) {
    if (!overrides) {
      return Optional.empty();
    }
    String underscored = variableName(key, false);
    String compact = variableName(key, true);
    consulted.add(underscored);
    consulted.add(compact);
    suggestable.add(underscored);
    String value = variables.get(underscored);
    String compactValue = compact.equals(underscored) ? null : variables.get(compact);
    if (value != null && compactValue != null) {
      throw new ConfigException(underscored, "and " + compact + " both set " + key + "; keep one of them");
    }
    return Optional.ofNullable(value != null ? value : compactValue).map(String::strip);
  }

  /**
   * {@code tollgate.providers.my-llm.api-key} → {@code TOLLGATE_PROVIDERS_MY_LLM_API_KEY}, or with
   * {@code compact} (Spring Boot's rule: dashes dropped) {@code TOLLGATE_PROVIDERS_MYLLM_APIKEY}.
   */
  static String variableName(String key, boolean compact) {
    String name = compact ? key.replace("-", "") : key;
    return name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
  }

  /** Fails on a {@code TOLLGATE_} variable that overrides no key: a typo must not pass silently. */
  void rejectUnknownOverrides() {
    if (!overrides) {
      return;
    }
    for (String name : new TreeSet<>(variables.keySet())) {
      if (name.startsWith(TollgateConfigLoader.ENVIRONMENT_PREFIX)
          && !name.equals(TollgateConfigLoader.LOCATION_VARIABLE)
          && !consulted.contains(name)) {
        throw new ConfigException(name, "is set but matches no configuration key"
            + Suggestions.closest(name, suggestable).map(s -> "; did you mean " + s + "?").orElse(
                "; variables override keys (TOLLGATE_REDIS_URL for tollgate.redis.url), and entries"
                    + " of providers, tenants.overrides and model-map only when the file has them"));
      }
    }
  }
}
