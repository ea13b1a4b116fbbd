package io.tollgate.overrides;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One entry of the audit list: a change of the live overrides.
 *
 * @param version the overrides' version this change made
 * @param action {@code set} or {@code remove}
 * @param field where the override is kept
 * @param label what it applies to, as the operator named it
 * @param by who changed it
 * @param at when, on Redis's clock (or this JVM's without Redis)
 * @param before the limits set before, empty when none
 * @param after the limits set now, empty when removed
 */
public record OverrideChange(long version, String action, String field, String label, String by,
    Instant at, Map<String, String> before, Map<String, String> after) {

  public OverrideChange {
    before = Collections.unmodifiableMap(new LinkedHashMap<>(before));
    after = Collections.unmodifiableMap(new LinkedHashMap<>(after));
  }
}
