package io.tollgate.overrides;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One override as it is stored: the limit keys it sets, as a {@code limits:} section writes them,
 * and who set it when.
 *
 * @param field where it is kept ({@code tenant:<hash>}, {@code provider:<name>}, {@code model:<p>/<m>})
 * @param label what the operator named ({@code tenant acme}); what the status page and lists show
 * @param limits limit key → value as written ({@code requests-per-minute} → {@code 600})
 * @param by who set it
 * @param at when, on Redis's clock (or this JVM's without Redis)
 */
public record OverrideEntry(String field, String label, Map<String, String> limits, String by,
    Instant at) {

  public OverrideEntry {
    limits = Collections.unmodifiableMap(new LinkedHashMap<>(limits));
  }
}
