package io.tollgate.router.internal;

import io.tollgate.router.OpenedBy;
import java.time.Instant;

/**
 * One stretch of a breaker not being closed, from opening to closing, as this instance sees it.
 * Mutable, guarded by its breaker's lock; the exchange with the store holds on to an episode to
 * tell, when Redis answers, whether the breaker has moved on meanwhile.
 */
final class Episode {

  OpenedBy openedBy;
  /** The shared episode's generation; 0 while the store has not heard of this one. */
  long generation;
  /** 1 when opened by failures, one more after each failed probe. */
  int attempt;
  /** The attempt the store last confirmed; below {@link #attempt} while a failed probe is unpublished. */
  int sharedAttempt;
  Instant openUntil;
  /** Closed by this instance's probe: the store is still to be told. */
  boolean over;

  Episode(OpenedBy openedBy, long generation, int attempt, Instant openUntil) {
    this.openedBy = openedBy;
    this.generation = generation;
    this.attempt = attempt;
    this.sharedAttempt = generation == 0 ? 0 : attempt;
    this.openUntil = openUntil;
  }
}
