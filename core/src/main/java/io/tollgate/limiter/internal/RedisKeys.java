package io.tollgate.limiter.internal;

import io.tollgate.limiter.Subject;

/**
 * The key of {@code lua/limiter.lua}: {@code tg:{<tag>}:s} holds a subject's state, under the
 * subject's hash tag (one Cluster slot).
 */
public final class RedisKeys {

  private static final String KEY_PREFIX = "tg:";

  private RedisKeys() {}

  /** The key of a subject's state. */
  public static String stateKey(Subject subject) {
    return KEY_PREFIX + subject.hashTag() + ":s";
  }
}
