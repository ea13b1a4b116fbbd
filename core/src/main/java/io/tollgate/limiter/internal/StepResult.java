package io.tollgate.limiter.internal;

/**
 * The reply of one limiter step, in the layout of {@code limiter.lua}'s reply: outcome, wait in µs,
 * server time in µs, then remaining units and µs-until-full for each limit in order.
 */
public record StepResult(long outcome, long waitMicros, long nowMicros, long[] perLimit) {

  public long remaining(int limit) {
    return perLimit[limit * 2];
  }

  public long untilFullMicros(int limit) {
    return perLimit[limit * 2 + 1];
  }
}
