package io.tollgate.gate;

import java.time.Instant;
import java.util.List;

/**
 * The instances that share this gate's Redis, each as its latest heartbeat describes it; without
 * Redis, this instance alone. For the status page (docs/operations.md).
 */
public interface Fleet {

  /**
   * One instance of the fleet.
   *
   * @param id a random id, new at each start
   * @param name the host and process id ({@code web-7:4120}), or the service's name when set
   * @param frontEnd {@code agent}, {@code starter}, {@code filter} or {@code library}
   * @param version the Tollgate version it runs
   * @param degraded true while its limiter decides without Redis
   * @param started when it started
   * @param lastSeen its latest heartbeat, on Redis's clock
   * @param self true for the instance that answers
   */
  record Instance(String id, String name, String frontEnd, String version, boolean degraded,
      Instant started, Instant lastSeen, boolean self) {}

  /** The live instances, the most recently seen first; this one among them. */
  List<Instance> instances();
}
