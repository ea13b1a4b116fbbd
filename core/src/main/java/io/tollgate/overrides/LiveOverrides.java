package io.tollgate.overrides;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The overrides in force, at one version: every instance that has read the same version decides
 * with the same limits.
 *
 * @param version raised by every change; 0 before the first
 * @param entries by {@link OverrideEntry#field()}
 * @param namesTenants whether any entry is a tenant's: when none is, a call looks none up
 */
public record LiveOverrides(long version, Map<String, OverrideEntry> entries, boolean namesTenants) {

  public static final LiveOverrides NONE = of(0, Map.of());

  public LiveOverrides {
    entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
  }

  public static LiveOverrides of(long version, Map<String, OverrideEntry> entries) {
    return new LiveOverrides(version, entries,
        entries.keySet().stream().anyMatch(field -> field.startsWith("tenant:")));
  }

  public Optional<OverrideEntry> entry(String field) {
    return Optional.ofNullable(entries.get(field));
  }
}
