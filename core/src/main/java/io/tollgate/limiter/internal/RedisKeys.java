package io.tollgate.limiter.internal;

import io.tollgate.limiter.Subject;

/**
 * The keys of {@code lua/limiter.lua}. Every key of a subject shares its hash tag, so one Cluster
 * slot: {@code tg:{<tag>}:s} holds the subject's state, {@code tg:{<tag>}:r:<id>} one reservation.
 */
public final class RedisKeys {

  private static final String KEY_PREFIX = "tg:";

  private RedisKeys() {}

  /** The key of a subject's state. */
  public static String stateKey(Subject subject) {
    return KEY_PREFIX + subject.hashTag() + ":s";
  }

  /** The key of the record of reservation {@code reservationId} of {@code subject}. */
  public static String recordKey(Subject subject, String reservationId) {
    return KEY_PREFIX + subject.hashTag() + ":r:" + reservationId;
  }
}
