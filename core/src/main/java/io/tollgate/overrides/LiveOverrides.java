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
 * @param epoch when the count of versions began: a store that lost its data counts again, and a
 *     version is the same only with the same epoch
 * @param entries by {@link OverrideEntry#field()}
 * @param namesTenants whether any entry is a tenant's: when none is, a call looks none up
 */
public record LiveOverrides(long version, long epoch, Map<String, OverrideEntry> entries,
    boolean namesTenants) {

  public static final LiveOverrides NONE = of(0, 0, Map.of());

  public LiveOverrides {
    entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
  }

  public static LiveOverrides of(long version, long epoch, Map<String, OverrideEntry> entries) {
    return new LiveOverrides(version, epoch, entries,
        entries.keySet().stream().anyMatch(field -> field.startsWith(OverrideTarget.TENANT_PREFIX)));
  }

  /** Which version of which count these are: equal stamps, the same overrides. */
  public OverrideStore.Stamp stamp() {
    return new OverrideStore.Stamp(version, epoch);
  }

  public Optional<OverrideEntry> entry(String field) {
    return Optional.ofNullable(entries.get(field));
  }
}
