package io.tollgate.limiter;

import java.util.Objects;

/** A reservation to settle with the tokens its call really used. */
public record Settlement(Reservation reservation, long actualTokens) {

  public Settlement {
    Objects.requireNonNull(reservation, "reservation");
    if (actualTokens < 0) {
      throw new IllegalArgumentException("actual tokens must be >= 0, was " + actualTokens);
    }
  }
}
