package io.tollgate.limiter;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The answer to a reservation, rich enough to fill OpenAI-style rate-limit headers.
 *
 * @param outcome allowed, denied, or never fits
 * @param limits what each limit has left, in the order the subject's {@link Limits} lists them
 * @param retryAfter when every limit will have room for the same cost (zero when allowed or never)
 * @param degraded true when the shared backend could not be asked and a local policy decided
 * @param reservation the handle to settle or release; present only when allowed
 */
public record Decision(
    Outcome outcome,
    List<LimitState> limits,
    Duration retryAfter,
    boolean degraded,
    Optional<Reservation> reservation) {

  public Decision {
    limits = List.copyOf(limits);
  }

  public boolean allowed() {
    return outcome == Outcome.ALLOWED;
  }

  /** Fewest requests any request limit has left, or -1 when no request limit applies. */
  public long remainingRequests() {
    return remaining(Dimension.REQUESTS);
  }

  /** Fewest tokens any token limit has left, or -1 when no token limit applies. */
  public long remainingTokens() {
    return remaining(Dimension.TOKENS);
  }

  /** Longest time until some limit is full again: the reset time of the headers. */
  public Duration resetAfter() {
    Duration longest = Duration.ZERO;
    for (LimitState state : limits) {
      if (state.untilFull().compareTo(longest) > 0) {
        longest = state.untilFull();
      }
    }
    return longest;
  }

  private long remaining(Dimension dimension) {
    long fewest = -1;
    for (LimitState state : limits) {
      if (state.limit().dimension() == dimension) {
        fewest = fewest < 0 ? state.remaining() : Math.min(fewest, state.remaining());
      }
    }
    return fewest;
  }
}
