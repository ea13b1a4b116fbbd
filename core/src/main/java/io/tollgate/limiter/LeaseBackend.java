package io.tollgate.limiter;

import io.tollgate.limiter.internal.StepResult;

/** The two script calls leases need from the shared backend, beside reserve, settle and release. */
interface LeaseBackend {

  /**
   * One atomic step: gives back what an ending lease did not spend, then reserves the call's own
   * cost, all or none, and on top of it up to {@code wantRequests} and {@code wantTokens} as the
   * new lease (less near the limit, nothing when the bucket is nearly empty).
   */
  Grant lease(Subject subject, Limits limits, long requests, long tokens, long wantRequests,
      long wantTokens, long giveRequests, long giveTokens, long givenAtMicros);

  /**
   * Adds {@code requests} and {@code tokens} (negative: gives them back) to every limit, as a settle
   * does, against amounts taken at {@code takenAtMicros}.
   */
  void adjust(Subject subject, Limits limits, long requests, long tokens, long takenAtMicros);

  /**
   * The reply of {@link #lease}: the call's own decision, and what was granted on top of it.
   *
   * @param requests requests granted beyond the call's cost (0 when denied)
   * @param tokens tokens granted beyond the call's cost (0 when denied)
   */
  record Grant(StepResult result, long requests, long tokens) {

    boolean allowed() {
      return result.outcome() == 1;
    }
  }
}
