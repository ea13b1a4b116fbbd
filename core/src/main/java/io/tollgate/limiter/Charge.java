package io.tollgate.limiter;

import java.util.Objects;

/** One subject to charge for a call, with the limits that apply to it. */
public record Charge(Subject subject, Limits limits) {

  public Charge {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(limits, "limits");
  }
}
