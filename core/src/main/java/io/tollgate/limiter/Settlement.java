package io.tollgate.limiter;

import java.util.Objects;

/**
 * A reservation to settle with the tokens its call really used, and what they cost (micro-dollars).
 */
public record Settlement(Reservation reservation, long actualTokens, long actualSpend) {

  public Settlement {
    Objects.requireNonNull(reservation, "reservation");
    if (actualTokens < 0) {
      throw new IllegalArgumentException("actual tokens must be >= 0, was " + actualTokens);
    }
    if (actualSpend < 0) {
      throw new IllegalArgumentException("actual spend must be >= 0, was " + actualSpend);
    }
  }

  /** Settles the tokens; the spend stays as reserved. */
  public Settlement(Reservation reservation, long actualTokens) {
    this(reservation, actualTokens, reservation.spend());
  }
}
