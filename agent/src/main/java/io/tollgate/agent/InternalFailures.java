package io.tollgate.agent;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failures of Tollgate's own code while handling an app's call. The call then proceeds as if the
 * agent were absent; each kind of failure is logged once (one line) and counted.
 */
public final class InternalFailures {

  private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

  private InternalFailures() {}

  /**
   * Counts a failure at {@code where} ({@code okhttp.interceptor}, {@code advice}); the first of
   * each kind is logged.
   */
  public static void record(String where, Throwable error) {
    long count = COUNTS.computeIfAbsent(where, k -> new AtomicLong()).incrementAndGet();
    if (count == 1) {
      AgentLog.failure("internal failure in " + where + " (logged once; the call proceeds "
          + "unchanged): " + error, error);
    }
  }

  /** Where what advice throws goes: the inlined advice catches it and calls this. */
  public static void adviceFailed(Throwable error) {
    record("advice", error);
  }

  /** How many failures were counted at {@code where}. */
  public static long count(String where) {
    AtomicLong count = COUNTS.get(where);
    return count == null ? 0 : count.get();
  }

  /** How many failures were counted in all. */
  public static long total() {
    return COUNTS.values().stream().mapToLong(AtomicLong::get).sum();
  }
}
