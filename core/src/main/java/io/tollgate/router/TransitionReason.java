package io.tollgate.router;

/** Why a breaker changed state. */
public enum TransitionReason {
  /** CLOSED → OPEN: {@code failures} consecutive failures within {@code window} here. */
  FAILURES,
  /** OPEN → HALF_OPEN: the open time is over. */
  OPEN_TIME_ENDED,
  /** HALF_OPEN → CLOSED: this instance's probe succeeded. */
  PROBE_SUCCEEDED,
  /** HALF_OPEN → OPEN, for longer: this instance's probe failed. */
  PROBE_FAILED,
  /** HALF_OPEN → OPEN, for longer: this instance's probe reported nothing within the probe timeout. */
  PROBE_LOST,
  /** → OPEN: another instance opened the breaker, or reopened it after its probe failed. */
  FLEET_OPENED,
  /** → CLOSED: another instance's probe succeeded. */
  FLEET_CLOSED
}
