package io.tollgate.limiter;

import java.time.Duration;

/**
 * What one limit has left after a decision.
 *
 * @param limit the limit
 * @param remaining units that could still be taken now (0 when exhausted or in debt)
 * @param untilFull time until the limit would be back to its full capacity with no more traffic
 */
public record LimitState(Limit limit, long remaining, Duration untilFull) {}
