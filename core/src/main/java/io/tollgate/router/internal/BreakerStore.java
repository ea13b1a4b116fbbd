package io.tollgate.router.internal;

import java.time.Duration;

/**
 * Where a fleet's breakers meet: each provider's open episode and its probe lock. Every method
 * answers the state after it ran. Implementations throw when the store cannot be reached; the
 * caller then decides locally.
 */
public interface BreakerStore {

  /** Starts an episode at {@code attempt}, open for {@code openTime}, unless one exists. */
  SharedState open(String provider, int attempt, Duration openTime);

  /**
   * Reads the episode. With {@code wantProbe}, takes the probe lock when the open time is over and
   * nobody holds it, or renews it when this instance does; without, lets go of a lock held here.
   */
  SharedState sync(String provider, boolean wantProbe);

  /** Ends episode {@code generation}: its probe succeeded. */
  SharedState probeSucceeded(String provider, long generation);

  /**
   * Reopens episode {@code generation} for {@code nextOpenTime}: the probe of {@code attempt}
   * failed. Applied once per attempt.
   */
  SharedState probeFailed(String provider, long generation, int attempt, Duration nextOpenTime);

  /** Lets go of the probe lock if this instance holds it. */
  SharedState releaseProbe(String provider);
}
