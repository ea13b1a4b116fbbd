package io.tollgate.router.internal;

import java.time.Duration;

/**
 * One round trip between a breaker and the store, chosen by the breaker: tell the store what only
 * this instance knows (its probe closed or failed the episode, or it opened one the store has not
 * heard of), or else read the fleet's state. The episode is the one the breaker was in when it
 * chose; the answer is applied only if the breaker is still in it.
 */
record Exchange(Kind kind, Episode episode, long generation, int attempt, Duration openTime,
    boolean wantProbe) {

  enum Kind { CLOSE, OPEN, FAIL, SYNC }

  static Exchange close(Episode episode) {
    return new Exchange(Kind.CLOSE, episode, episode.generation, 0, Duration.ZERO, false);
  }

  static Exchange open(Episode episode, Duration remaining) {
    return new Exchange(Kind.OPEN, episode, 0, episode.attempt, remaining, false);
  }

  static Exchange fail(Episode episode, Duration nextOpenTime) {
    return new Exchange(Kind.FAIL, episode, episode.generation, episode.sharedAttempt, nextOpenTime,
        false);
  }

  static Exchange sync(Episode episode, boolean wantProbe) {
    return new Exchange(Kind.SYNC, episode, 0, 0, Duration.ZERO, wantProbe);
  }

  SharedState send(BreakerStore store, String provider) {
    return switch (kind) {
      case CLOSE -> store.probeSucceeded(provider, generation);
      case OPEN -> store.open(provider, attempt, openTime);
      case FAIL -> store.probeFailed(provider, generation, attempt, openTime);
      case SYNC -> store.sync(provider, wantProbe);
    };
  }
}
