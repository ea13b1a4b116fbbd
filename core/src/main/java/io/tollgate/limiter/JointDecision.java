package io.tollgate.limiter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The answer for a call charged to several subjects (a tenant and a provider account): allowed only
 * when every one of them allowed it. When one denies, the reservations already taken from the
 * subjects before it have been released, so nothing stays charged.
 *
 * @param decisions one per subject asked, in order; the last is the one that denied, if any
 */
public record JointDecision(List<Decision> decisions) {

  public JointDecision {
    decisions = List.copyOf(decisions);
  }

  // loops, not streams: every call asks these once or twice, one or two decisions each

  public boolean allowed() {
    for (Decision decision : decisions) {
      if (!decision.allowed()) {
        return false;
      }
    }
    return true;
  }

  /** The decision that refused the call, if one did. */
  public Optional<Decision> denial() {
    for (Decision decision : decisions) {
      if (!decision.allowed()) {
        return Optional.of(decision);
      }
    }
    return Optional.empty();
  }

  public Duration retryAfter() {
    return denial().map(Decision::retryAfter).orElse(Duration.ZERO);
  }

  public boolean degraded() {
    for (Decision decision : decisions) {
      if (decision.degraded()) {
        return true;
      }
    }
    return false;
  }

  /** The reservations to settle or release when allowed. */
  public List<Reservation> reservations() {
    List<Reservation> reservations = new ArrayList<>(decisions.size());
    for (Decision decision : decisions) {
      decision.reservation().ifPresent(reservations::add);
    }
    return Collections.unmodifiableList(reservations);
  }
}
