package io.tollgate.gate.internal;

import io.tollgate.gate.CallResult;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.time.Duration;

/** What a call wants its driver (synchronous or asynchronous) to do next. */
public sealed interface Step<R> {

  /** Send {@code request} after {@code delay} (the jitter before switching to a fallback). */
  record Send<R>(String provider, OutboundRequest request, Duration delay) implements Step<R> {}

  /** Wait, then ask again: room may have appeared (on-limit: wait). */
  record Wait<R>(Duration duration) implements Step<R> {}

  /** The answer for the app. */
  record Done<R>(CallResult<R> result) implements Step<R> {}

  /** Nothing answered: the app gets its own client's exception, as without Tollgate. */
  record Fail<R>(IOException error) implements Step<R> {}
}
