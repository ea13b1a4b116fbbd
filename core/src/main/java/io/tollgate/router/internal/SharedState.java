package io.tollgate.router.internal;

/**
 * A breaker's open episode as the fleet shares it, read at one moment.
 *
 * @param generation tells episodes apart; 0 when there is none (the breaker is closed)
 * @param attempt 1 when opened by failures, one more after each failed probe
 * @param remainingMillis until the open time ends, on the store's clock; {@code <= 0}: a probe may go
 * @param probe who holds the probe lock
 */
public record SharedState(long generation, int attempt, long remainingMillis, Prober probe) {

  public static final SharedState NONE = new SharedState(0, 0, 0, Prober.NOBODY);

  /** Who holds the fleet's probe lock. */
  public enum Prober { NOBODY, THIS_INSTANCE, ANOTHER_INSTANCE }

  public boolean exists() {
    return generation != 0;
  }
}
