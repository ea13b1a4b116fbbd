package io.tollgate.overrides;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A change of the live overrides asked for over HTTP (the status page's API, the actuator), with
 * the fields of its JSON body: {@code {"action": "set", "tenant": "acme", "limits":
 * {"requests-per-minute": "600"}, "by": "alice"}}; {@code provider} names a provider's account
 * instead of {@code tenant}, and with {@code model} one model on it. {@code limits} may also be a
 * text, {@code "requests-per-minute=600, tokens-per-day=1000000"}: Spring Boot's actuator reads a
 * body as an object of texts only. What the fields name is checked when the change is applied,
 * so that every front end refuses the same requests with the same words.
 *
 * @param action {@code set} or {@code remove}
 * @param tenant the tenant's id, or null
 * @param provider the provider's name, or null
 * @param model a model on {@code provider}, or null
 * @param limits limit key → value as a {@code limits:} section writes it; null (or empty) to
 *     remove
 * @param by who asks, or null
 */
public record OverrideRequest(String action, String tenant, String provider, String model,
    Map<String, String> limits, String by) {

  /** The fields a body may have. */
  public static final List<String> FIELDS =
      List.of("action", "tenant", "provider", "model", "limits", "by");

  public OverrideRequest {
    limits = limits == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(limits));
  }

  /**
   * Reads a body: a JSON object of {@link #FIELDS}, whose {@code limits} is an object of numbers
   * and texts, or a text of {@code key=value} pairs ({@link #limitsFromText}).
   *
   * @throws IllegalArgumentException when it is not, naming what is wrong
   */
  public static OverrideRequest fromJson(byte[] body) {
    return OverrideJson.readRequest(body);
  }

  /**
   * Reads limits written as a text: {@code key=value} pairs separated by commas, {@code
   * "requests-per-minute=600, usd-per-day=5"}.
   *
   * @throws IllegalArgumentException when a pair is not {@code key=value}, or a key comes twice
   */
  public static Map<String, String> limitsFromText(String text) {
    Map<String, String> limits = new LinkedHashMap<>();
    for (String pair : text.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String key = equals < 0 ? "" : pair.substring(0, equals).strip();
      if (key.isEmpty()) {
        throw new IllegalArgumentException("limits takes key=value pairs separated by commas,"
            + " such as requests-per-minute=600, tokens-per-day=1000000");
      }
      if (limits.put(key, pair.substring(equals + 1).strip()) != null) {
        throw new IllegalArgumentException("limits names " + key + " twice");
      }
    }
    return limits;
  }

  /** The same request, made by {@code by}: for a front end that knows who asks. */
  public OverrideRequest withBy(String by) {
    return new OverrideRequest(action, tenant, provider, model, limits, by);
  }

  /**
   * Sets or removes the override asked for, as {@link #by()}.
   *
   * @return the change made; empty when a removal found no override to remove
   * @throws IllegalArgumentException naming the field at fault, or (a {@link
   *     io.tollgate.config.ConfigException}) naming the configuration key, as {@link Overrides#set}
   */
  public Optional<OverrideChange> applyTo(Overrides overrides) {
    OverrideTarget target = target();
    if ("set".equals(action)) {
      return Optional.of(overrides.set(target, limits == null ? Map.of() : limits, by));
    }
    if ("remove".equals(action)) {
      if (limits != null && !limits.isEmpty()) {
        throw new IllegalArgumentException("remove takes no limits");
      }
      return overrides.remove(target, by);
    }
    throw new IllegalArgumentException("action must be set or remove");
  }

  /** What the request applies to. */
  public OverrideTarget target() {
    if ((tenant == null) == (provider == null)) {
      throw new IllegalArgumentException("name either a tenant or a provider (and a model on it)");
    }
    if (tenant != null) {
      if (model != null) {
        throw new IllegalArgumentException("a model is named with its provider, not a tenant");
      }
      return OverrideTarget.tenant(tenant);
    }
    return model == null ? OverrideTarget.provider(provider) : OverrideTarget.model(provider, model);
  }
}
