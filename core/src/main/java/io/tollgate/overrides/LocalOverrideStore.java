package io.tollgate.overrides;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link OverrideStore} of one JVM, for a gate without Redis: the same rules, nothing shared. */
final class LocalOverrideStore implements OverrideStore {

  private final Clock clock;
  private final Map<String, OverrideEntry> entries = new LinkedHashMap<>();
  private final Deque<OverrideChange> audit = new ArrayDeque<>();
  private long version;

  LocalOverrideStore(Clock clock) {
    this.clock = clock;
  }

  @Override
  public synchronized Stamp stamp() {
    return new Stamp(version, 0);
  }

  @Override
  public synchronized LiveOverrides read() {
    return LiveOverrides.of(version, 0, entries);
  }

  @Override
  public synchronized OverrideChange set(String field, String label, Map<String, String> limits,
      String by) {
    OverrideEntry before = entries.get(field);
    OverrideEntry after = new OverrideEntry(field, label, limits, by, clock.instant());
    entries.put(field, after);
    return record("set", after, before, limits);
  }

  @Override
  public synchronized Optional<OverrideChange> remove(String field, String label, String by) {
    OverrideEntry before = entries.remove(field);
    if (before == null) {
      return Optional.empty();
    }
    return Optional.of(record("remove",
        new OverrideEntry(field, label, Map.of(), by, clock.instant()), before, Map.of()));
  }

  @Override
  public synchronized List<OverrideChange> audit(int max) {
    return new ArrayList<>(audit).subList(0, Math.min(Math.max(max, 0), audit.size()));
  }

  private OverrideChange record(String action, OverrideEntry made, OverrideEntry before,
      Map<String, String> after) {
    OverrideChange change = new OverrideChange(++version, action, made.field(), made.label(),
        made.by(), made.at(), before == null ? Map.of() : before.limits(), after);
    audit.addFirst(change);
    if (audit.size() > AUDIT_LENGTH) {
      audit.removeLast();
    }
    return change;
  }
}
