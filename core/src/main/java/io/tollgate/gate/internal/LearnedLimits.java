package io.tollgate.gate.internal;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.LimitState;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Reservation;
import io.tollgate.llm.ProviderSignals;
import io.tollgate.llm.Quota;
import io.tollgate.llm.QuotaKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Limits learned from the provider ({@code learn-limits}): when its rate-limit headers report less
 * room than the account's charge left, the shared state is lowered to what it reports, so that a
 * fleet sharing its key with other software stops before the provider's own 429s.
 *
 * <p>Per dimension the provider reports one limit: it lowers the one limit of that dimension with
 * the shortest window of at most a minute, the model's where the call's model has one (OpenAI and
 * Anthropic count per model), else the account's. Only lowered, never raised: the configured limits stay the ceiling.
 */
final class LearnedLimits {

  /**
   * The longest window lowered: providers report their per-minute limits (RPM, TPM), and lowering
   * an hourly or daily bucket to what is left of a minute would starve it for most of its window.
   */
  static final Duration LONGEST_WINDOW = Duration.ofMinutes(1);

  private LearnedLimits() {}

  /**
   * What to lower after a response, given the account's decision for the call; empty when the
   * provider reports at least the room Tollgate holds.
   */
  static Optional<Lowering> of(Decision account, ProviderSignals signals) {
    Optional<Reservation> reservation = account.reservation();
    if (reservation.isEmpty()) {
      return Optional.empty();
    }
    List<Limit> lowered = new ArrayList<>(2);
    long requests = below(account, signals, Dimension.REQUESTS, QuotaKind.REQUESTS, lowered);
    long tokens = below(account, signals, Dimension.TOKENS, QuotaKind.TOKENS, lowered);
    if (lowered.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Lowering(reservation.get(), Limits.of(lowered), requests, tokens));
  }

  /** The provider's remaining in {@code dimension} when below what its limit had left, else -1. */
  private static long below(Decision account, ProviderSignals signals, Dimension dimension,
      QuotaKind kind, List<Limit> lowered) {
    Optional<Quota> quota = signals.quota(kind);
    OptionalLong reported = quota.map(Quota::remaining).orElse(OptionalLong.empty());
    // a limit the provider says is full again already tells nothing about the room left
    if (reported.isEmpty() || quota.get().resetAfter().filter(Duration::isZero).isPresent()) {
      return -1;
    }
    LimitState target = target(account.limits(), dimension);
    if (target == null || reported.getAsLong() >= target.remaining()) {
      return -1;
    }
    lowered.add(target.limit());
    return reported.getAsLong();
  }

  /** The model's limit of {@code dimension} with the shortest window, else the account's. */
  private static LimitState target(List<LimitState> states, Dimension dimension) {
    LimitState best = null;
    for (LimitState state : states) {
      Limit limit = state.limit();
      if (limit.dimension() != dimension || limit.window().compareTo(LONGEST_WINDOW) > 0) {
        continue;
      }
      boolean model = !limit.group().isEmpty();
      boolean bestModel = best != null && !best.limit().group().isEmpty();
      if (best == null || (model && !bestModel)
          || (model == bestModel && limit.window().compareTo(best.limit().window()) < 0)) {
        best = state;
      }
    }
    return best;
  }

  /** The limits to lower on the account's subject, and the room to leave (-1: as it is). */
  record Lowering(Reservation account, Limits limits, long requests, long tokens) {

    void apply(RateLimiter limiter) {
      limiter.lowerRoom(account.subject(), limits, requests, tokens);
    }
  }
}
