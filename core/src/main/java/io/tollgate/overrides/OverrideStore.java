package io.tollgate.overrides;

import io.tollgate.redis.RedisScripts;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where live overrides are kept: in Redis for a fleet ({@code lua/overrides.lua}: one hash of the
 * overrides, a version every change raises, a bounded audit list), or in this JVM without Redis.
 * Values are checked by {@link Overrides} before they are stored.
 */
public interface OverrideStore {

  /** The audit list keeps the latest this many changes. */
  int AUDIT_LENGTH = 1000;

  /** The version now (raised by every change, 0 before the first) and the epoch of its count. */
  Stamp stamp();

  /** A version of the overrides, and when its count began. */
  record Stamp(long version, long epoch) {}

  /** Every override, at the version read with them. */
  LiveOverrides read();

  /** Sets the override kept at {@code field} (replacing one there); the change made. */
  OverrideChange set(String field, String label, Map<String, String> limits, String by);

  /** Removes the override kept at {@code field}; empty when there was none. */
  Optional<OverrideChange> remove(String field, String label, String by);

  /** The latest {@code max} changes, newest first. */
  List<OverrideChange> audit(int max);

  /** Overrides a whole fleet shares, in the Redis behind {@code redis}. */
  static OverrideStore redis(RedisScripts redis) {
    return new RedisOverrideStore(redis);
  }

  /** Overrides of this JVM alone: lost when it stops. */
  static OverrideStore inMemory(Clock clock) {
    return new LocalOverrideStore(clock);
  }
}
