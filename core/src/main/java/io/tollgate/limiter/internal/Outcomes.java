package io.tollgate.limiter.internal;

import io.tollgate.limiter.Charge;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.JointDecision;
import io.tollgate.limiter.LimitState;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.Outcome;
import io.tollgate.limiter.Reservation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/** The checks and answers every backend shares, so that they cannot drift apart. */
public final class Outcomes {

  private Outcomes() {}

  /** Rejects a cost no limiter can make sense of. */
  public static void checkCost(long requests, long tokens) {
    if (requests < 0 || tokens < 0) {
      throw new IllegalArgumentException(
          "costs must be >= 0, were " + requests + " requests and " + tokens + " tokens");
    }
    if (requests == 0 && tokens == 0) {
      throw new IllegalArgumentException("a reservation must take at least one request or token");
    }
  }

  /** Rejects a negative spend. */
  public static void checkSpend(long spend) {
    if (spend < 0) {
      throw new IllegalArgumentException("spend must be >= 0, was " + spend);
    }
  }

  /** True when some limit could never hold this cost, even when full. */
  public static boolean neverFits(Limits limits, long requests, long tokens) {
    return neverFits(limits, requests, tokens, 0);
  }

  /** True when some limit could never hold this cost, spend included, even when full. */
  public static boolean neverFits(Limits limits, long requests, long tokens, long spend) {
    for (Limit limit : limits.all()) {
      long cost = switch (limit.dimension()) {
        case REQUESTS -> requests;
        case TOKENS -> tokens;
        case SPEND -> spend;
      };
      // what a priority class must leave unused is never its to take
      if (cost > limit.capacity() - limit.keep()) {
        return true;
      }
    }
    return false;
  }

  /** The answer for a cost that can never fit: nothing was asked of the backend or charged. */
  public static Decision neverFitsDecision(Limits limits, boolean degraded) {
    List<LimitState> states = new ArrayList<>();
    limits.all().forEach(limit -> states.add(new LimitState(limit, -1, Duration.ZERO)));
    return new Decision(Outcome.NEVER_FITS, states, Duration.ZERO, degraded, Optional.empty());
  }

  /**
   * A call charged to several subjects, reserved on each in turn: at the first denial, the
   * reservations taken before it are given back and the answer ends there.
   */
  public static JointDecision inTurn(List<Charge> charges, Function<Charge, Decision> reserve,
      Consumer<Reservation> release) {
    List<Decision> decisions = new ArrayList<>(charges.size());
    for (Charge charge : charges) {
      Decision decision = reserve.apply(charge);
      decisions.add(decision);
      if (!decision.allowed()) {
        decisions.forEach(earlier -> earlier.reservation().ifPresent(release));
        break;
      }
    }
    return new JointDecision(decisions);
  }

  /** Turns a step's reply into a decision. */
  public static Decision decision(Limits limits, StepResult result, boolean degraded,
      Reservation reservation) {
    List<LimitState> states = new ArrayList<>(limits.all().size());
    for (int i = 0; i < limits.all().size(); i++) {
      states.add(new LimitState(limits.all().get(i), result.remaining(i),
          Duration.ofNanos(result.untilFullMicros(i) * 1000)));
    }
    boolean allowed = result.outcome() == 1;
    return new Decision(allowed ? Outcome.ALLOWED : Outcome.DENIED, states,
        allowed ? Duration.ZERO : Duration.ofNanos(result.waitMicros() * 1000), degraded,
        allowed ? Optional.of(reservation) : Optional.empty());
  }
}
