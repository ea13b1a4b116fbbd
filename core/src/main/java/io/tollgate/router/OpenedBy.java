package io.tollgate.router;

/** Whose evidence holds a breaker open. */
public enum OpenedBy {
  /** This instance: its own consecutive failures, or its own probe that failed. */
  LOCAL,
  /** Another instance of the fleet, through the state shared in Redis. */
  FLEET
}
