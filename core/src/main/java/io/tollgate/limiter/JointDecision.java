package io.tollgate.limiter;

import java.time.Duration;
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

  public boolean allowed() {
    return decisions.stream().allMatch(Decision::allowed);
  }

  /** The decision that refused the call, if one did. */
  public Optional<Decision> denial() {
    return decisions.stream().filter(decision -> !decision.allowed()).findFirst();
  }

  public Duration retryAfter() {
    return denial().map(Decision::retryAfter).orElse(Duration.ZERO);
  }

  public boolean degraded() {
    return decisions.stream().anyMatch(Decision::degraded);
  }

  /** The reservations to settle or release when allowed. */
  public List<Reservation> reservations() {
    return decisions.stream().flatMap(decision -> decision.reservation().stream()).toList();
  }
}
