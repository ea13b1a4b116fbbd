package io.tollgate.limiter;

/** What to decide while the shared limiter (Redis) cannot be asked. */
public enum FailurePolicy {
  /** Admit, but through a local limiter holding {@code local-share} of each limit. */
  FAIL_OPEN,
  /** Deny every call until the shared limiter answers again. */
  FAIL_CLOSED
}
