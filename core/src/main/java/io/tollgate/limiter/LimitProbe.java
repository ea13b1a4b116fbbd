package io.tollgate.limiter;

import java.util.Objects;

/**
 * What a subject's limits have left, read as the smallest reservation the limiter takes (one
 * token, or one request where no token limit applies), given back at once: the limiter has no
 * read-only query, and this keeps the figures its own, on its clock, charging nobody. The status
 * report, the budget gauge and the starter's {@code /actuator/tollgate/{tenant}} read limits so.
 */
public final class LimitProbe {

  private final Decision decision;
  private final Dimension probed;

  private LimitProbe(Decision decision, Dimension probed) {
    this.decision = decision;
    this.probed = probed;
  }

  /**
   * Reserves the smallest cost of {@code limits} for {@code subject} and releases it.
   *
   * @throws RuntimeException what the limiter throws when it cannot answer
   */
  public static LimitProbe read(RateLimiter limiter, Subject subject, Limits limits) {
    Objects.requireNonNull(limiter, "limiter");
    Dimension probed = limits.capacity(Dimension.TOKENS) >= 0 ? Dimension.TOKENS : Dimension.REQUESTS;
    Decision decision = limiter.reserve(subject, limits, probed == Dimension.REQUESTS ? 1 : 0,
        probed == Dimension.TOKENS ? 1 : 0, 0);
    decision.reservation().ifPresent(limiter::release);
    return new LimitProbe(decision, probed);
  }

  /** The limiter's answer: each limit as the probe left it, before the release. */
  public Decision decision() {
    return decision;
  }

  /**
   * What the probe took of {@code dimension}: one unit of the dimension it probed when it was
   * admitted, else nothing. Added to what a limit of that dimension shows left, it gives what was
   * left before the probe.
   */
  public long taken(Dimension dimension) {
    return decision.allowed() && dimension == probed ? 1 : 0;
  }
}
