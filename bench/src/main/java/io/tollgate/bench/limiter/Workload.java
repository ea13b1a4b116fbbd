package io.tollgate.bench.limiter;

import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.Subject;
import java.time.Duration;

/**
 * The traffic every scenario replays, so that their figures compare: many tenants, each with a
 * per-minute request limit and a per-minute token limit, each call reserving an estimate of tokens.
 * Limits are far above what a benchmark run can use, so every call is admitted: a denied call does
 * less work, and a benchmark that measured denials would flatter every limiter.
 */
final class Workload {

  /** Distinct subjects the calls go round: enough that no single key is hot. */
  static final int SUBJECTS = 10_000;
  static final long REQUESTS_PER_MINUTE = 10_000;
  static final long TOKENS_PER_MINUTE = 2_000_000;
  /** Tokens reserved per call (the estimate before the LLM answers). */
  static final long ESTIMATE = 1_000;
  /** Tokens a call turns out to use, settled after the answer. */
  static final long ACTUAL = 800;

  private Workload() {}

  /** The dual per-minute limit of every subject. */
  static Limits limits() {
    return Limits.of(Limit.requests(REQUESTS_PER_MINUTE, Duration.ofMinutes(1)),
        Limit.tokens(TOKENS_PER_MINUTE, Duration.ofMinutes(1)));
  }

  static Subject subject(int index) {
    return Subject.of("tenant", "tenant-" + index);
  }

  /**
   * Walks {@code count} subjects round robin, each thread from its own offset: the load spreads
   * evenly over the subjects (which keeps the sliding logs at their size) and threads rarely meet
   * on one key.
   */
  static final class Cursor {
    private final int count;
    private int next;

    Cursor(int count, int thread, int threads) {
      this.count = count;
      this.next = (int) ((long) count * thread / threads);
    }

    int next() {
      int current = next;
      next = current + 1 == count ? 0 : current + 1;
      return current;
    }
  }
}
